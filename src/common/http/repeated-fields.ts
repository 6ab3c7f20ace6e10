/**
 * The fields of a request body that its parser would lose without a word (docs/API.md,
 * "Recording scans": a field given twice, or an unknown one, is a 400): JSON.parse keeps the last
 * of a key given twice in one object, and the form parser (qs) drops a `__proto__` field.
 */

/**
 * The first key given twice in one object of a JSON text, decoded (`"a"` and `"\u0061"` are one
 * key), or null when none is. Only strings and the structure are read: a text that is not JSON
 * answers whatever it answers, and its parse fails after.
 */
export function repeatedJsonKey(text: string): string | null {
  /** The keys seen in each object open at this point; null for an array. */
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      const inObject = open.at(-1);
      if (inObject && nextToken(text, end) === ':') {
        const key = decode(text.slice(i, end));
        if (key !== null) {
          if (inObject.has(key)) return key;
          inObject.add(key);
        }
      }
      i = end;
      continue;
    }
    if (char === '{') open.push(new Set());
    else if (char === '[') open.push(null);
    else if (char === '}' || char === ']') open.pop();
    i += 1;
  }
  return null;
}

/** The index just past the string that starts at `start` (its closing quote), or the text's end. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    if (text[i] === '\\') i += 2;
    else if (text[i] === '"') return i + 1;
    else i += 1;
  }
  return text.length;
}

/** The first character after `from` that is not JSON whitespace. */
function nextToken(text: string, from: number): string | undefined {
  let i = from;
  while (i < text.length && ' \t\n\r'.includes(text[i])) i += 1;
  return text[i];
}

function decode(quoted: string): string | null {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return null;
  }
}

/**
 * The field names of a form body (`application/x-www-form-urlencoded`) that the form parser drops:
 * `__proto__`, which it never sets on the object it builds.
 */
export function droppedFormFields(text: string): string[] {
  const names = new URLSearchParams(text).keys();
  return [...new Set(names)].filter((name) => name === '__proto__');
}
