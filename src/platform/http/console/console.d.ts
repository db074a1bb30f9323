// Types of the console script's exports, for the tests (the script itself is plain browser JS).
export function parseSse(
  onEvent: (event: { id: string | undefined; data: string }) => void,
): (chunk: string) => void;
export function resumo(evento: { topic: string; payload?: unknown }): {
  topico: string;
  texto: string;
  classe: string;
};
