/** An object being read (its names so far, the current one) or an array (the current index). */
type Level = { keys: Set<string>; key: string } | { index: number };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const segment = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

function pointerOf(levels: readonly Level[], key: string): string {
  const path = levels
    .slice(0, -1)
    .map((level) => ('keys' in level ? segment(level.key) : String(level.index)));
  return [...path, segment(key)].map((s) => `/${s}`).join('');
}

/**
 * The JSON Pointer of the first name repeated within one object of a JSON text, or undefined.
 * `JSON.parse` keeps the last of `{"amount":1000,"amount":2000}` silently where another parser
 * (a platform's log, a proxy's filter) may read the first, so a command's fields would mean two
 * things; such a body is refused instead. Names compare as decoded (`"\u0061"` is `"a"`). A text
 * that is not JSON gives undefined: the parser words its own refusal. One pass, no recursion.
 */
export function duplicateKeyOf(text: string): string | undefined {
  const levels: Level[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== QUOTE) {
        end += text.charCodeAt(end) === BACKSLASH ? 2 : 1;
      }
      if (end >= text.length) return undefined;
      const top = levels[levels.length - 1];
      if (expectKey && top && 'keys' in top) {
        const raw = text.slice(i, end + 1);
        let key: string;
        try {
          key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        } catch {
          return undefined;
        }
        if (top.keys.has(key)) return pointerOf(levels, key);
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b /* { */) {
      levels.push({ keys: new Set(), key: '' });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      levels.push({ index: 0 });
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      levels.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = levels[levels.length - 1];
      if (top && 'index' in top) top.index += 1;
      expectKey = top !== undefined && 'keys' in top;
    }
  }
  return undefined;
}
