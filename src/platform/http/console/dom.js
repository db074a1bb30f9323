// A DOM element with its class and children; every value is written as text, never as HTML.

/** `el('li', 'classe', 'texto', outroElemento…)`: strings become text nodes. */
export function el(tag, classe, ...filhos) {
  const e = document.createElement(tag);
  if (classe) e.className = classe;
  for (const f of filhos) if (f !== undefined && f !== null && f !== false) e.append(f);
  return e;
}
