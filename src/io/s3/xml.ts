/**
 * The few fields S3's XML answers carry that we read: elements found by
 * name, text unescaped. S3's responses are flat records of known elements,
 * so no general XML parser (and none of its size) is needed.
 */

function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-f]+|#\d+);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower === 'amp') return '&';
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** The raw inner text of every `<name>` element in `xml`, in order (elements of the same name do not nest in S3's answers). */
export function xmlBlocks(xml: string, name: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`, 'g');
  for (let m = re.exec(xml); m; m = re.exec(xml)) out.push(m[1]!);
  return out;
}

/** The text of the first `<name>` element, unescaped; undefined when there is none. */
export function xmlText(xml: string, name: string): string | undefined {
  const block = xmlBlocks(xml, name)[0];
  return block === undefined ? undefined : unescape(block);
}
