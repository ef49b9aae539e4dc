/**
 * The `--columns` list: comma-separated column paths, dotted for nested
 * columns, a part in double quotes when its name holds a dot, a comma or a
 * quote (`"a.b".c`, `"my, col"`; `""` inside quotes is one quote), as in
 * `--where`. A path without quotes is handed to the reader as it is, which
 * also matches a column whose name is exactly that dotted text.
 */
export function parseColumnList(value: string): (string | string[])[] {
  const out: (string | string[])[] = [];
  for (const item of splitOutsideQuotes(value)) {
    const text = item.trim();
    if (text === '') continue;
    out.push(parseColumnPath(text));
  }
  return out;
}

/**
 * One column path (`--column`), written as in `--columns`: dotted, a part in
 * double quotes when its name holds a dot or a quote (`"a.b"`). Without
 * quotes it is handed to the reader as it is, commas and all.
 */
export function parseColumnPath(value: string): string | string[] {
  const text = value.trim();
  if (!text.includes('"')) return value;
  // Every quote toggles, a doubled one twice: an odd count leaves one open.
  if (text.split('"').length % 2 === 0) throw new Error(`a double quote in ${JSON.stringify(value)} is not closed`);
  return quotedPath(text);
}

/** The items between commas that are not inside double quotes. */
function splitOutsideQuotes(value: string): string[] {
  const items: string[] = [];
  let start = 0;
  let inQuotes = false;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '"') inQuotes = !inQuotes; // a doubled quote toggles twice
    else if (value[i] === ',' && !inQuotes) {
      items.push(value.slice(start, i));
      start = i + 1;
    }
  }
  if (inQuotes) throw new Error(`a double quote in ${JSON.stringify(value)} is not closed`);
  items.push(value.slice(start));
  return items;
}

/** A path with quoted parts, as its list of names. */
function quotedPath(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  for (;;) {
    let part = '';
    if (text[i] === '"') {
      for (i++; !(text[i] === '"' && text[i + 1] !== '"'); i++) {
        if (text[i] === '"') i++;
        part += text[i];
      }
      i++; // the closing quote
      if (i < text.length && text[i] !== '.') throw new Error(`expected a dot after the quoted name in ${JSON.stringify(text)}`);
    } else {
      while (i < text.length && text[i] !== '.') {
        if (text[i] === '"') throw new Error(`a quote inside the name in ${JSON.stringify(text)}: quote the whole name`);
        part += text[i++];
      }
    }
    if (part === '') throw new Error(`the column path ${JSON.stringify(text)} has an empty name`);
    parts.push(part);
    if (i >= text.length) return parts;
    i++; // the dot
  }
}
