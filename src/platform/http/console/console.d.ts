// Types of the console script's exports, for the tests (the script itself is plain browser JS).
export function parseSse(
  onEvent: (event: { id: string | undefined; data: string }) => void,
): (chunk: string) => void;
export interface Nomes {
  area?: (id: string) => string | undefined;
  planta?: (id: string) => string | undefined;
  placa?: (id: string) => string | undefined;
  motorista?: (id: string) => string | undefined;
}
export function resumo(
  evento: { topic: string; payload?: unknown },
  nomes?: Nomes,
): {
  topico: string;
  texto: string;
  classe: string;
};
export function semIds(texto: unknown): string;
