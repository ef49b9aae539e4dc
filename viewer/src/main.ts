/**
 * The viewer page: opens a file given by `?url=` (read with HTTP range
 * requests), or dropped or picked (read by Blob slices); nothing is sent
 * anywhere. Plain DOM: the page is a few panels, no framework needed.
 */
import { blobSource, formatBytes as size, httpSource } from 'parquetry';
import { $, el } from './dom.js';
import { cell } from './format.js';
import { openFile, type ChunkBox, type GroupBox, type Input, type Opened, type PageBox, type TreeNode } from './model.js';
import { DataTable } from './table.js';

const ratio = (uncompressed: number, compressed: number) => (compressed > 0 ? `${(uncompressed / compressed).toFixed(2)}x` : '–');

/** A stable colour per name (codec or encoding), so the legend matches the boxes. */
function hue(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 360;
  return h;
}
const codecColour = (codec: string) => `hsl(${hue(codec)} 45% 82%)`;
const encodingColour = (encoding: string) => `hsl(${hue(encoding + '#')} 60% 55%)`;

function renderTree(node: TreeNode): HTMLLIElement {
  const li = el('li', {}, el('span', { class: 'name' }, node.name), ' ', el('span', { class: 'detail' }, node.detail));
  if (node.children.length) li.append(el('ul', {}, ...node.children.map(renderTree)));
  return li;
}

function describe(entries: Record<string, unknown> | undefined): string {
  return entries ? Object.entries(entries).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${cell(v)}`).join('\n') : '';
}

const tip = () => $('tip');
function hover(target: HTMLElement, text: () => string): void {
  target.addEventListener('mouseenter', () => {
    tip().textContent = text();
    tip().hidden = false;
  });
  target.addEventListener('mousemove', (e) => {
    tip().style.left = `${e.clientX + 12}px`;
    tip().style.top = `${e.clientY + 12}px`;
  });
  target.addEventListener('mouseleave', () => {
    tip().hidden = true;
  });
}

function pageText(c: ChunkBox, p: PageBox, i: number): string {
  return [
    `${c.path} · ${p.kind} ${i} at byte ${p.offset}`,
    `${p.encoding}, ${size(p.bytes - p.header)} stored${p.header ? ` after a ${p.header}-byte header` : ''}, ${size(p.uncompressed)} uncompressed (${ratio(p.uncompressed, p.bytes - p.header)})`,
    p.rows !== undefined && p.rows !== null ? `rows ${p.firstRow ?? '?'}..${(p.firstRow ?? 0) + p.rows - 1}` : '',
    p.stats ? `statistics\n${describe(p.stats)}` : '',
    p.bounds ? `page index\n${describe(p.bounds)}` : '',
  ].filter(Boolean).join('\n');
}

function drawPages(box: HTMLElement, c: ChunkBox): void {
  const pages = el('div', { class: 'pages' });
  c.pages?.forEach((p, i) => {
    const d = el('div', { class: 'page', 'data-encoding': p.encoding, 'data-bytes': String(p.bytes) });
    d.style.flexGrow = String(p.bytes);
    d.style.background = encodingColour(p.encoding);
    hover(d, () => pageText(c, p, i));
    pages.append(d);
  });
  if (c.pagesError) pages.append(el('span', { class: 'error' }, c.pagesError));
  box.append(pages);
}

/** Row groups (Trevni: the file) as bars to one scale: the largest is the full width. */
function renderLayout(file: Opened): HTMLElement {
  const max = Math.max(1, ...file.groups.map((g) => g.bytes));
  const root = el('div');
  const codecs = new Set<string>();
  const encodings = new Set<string>();
  for (const g of file.groups) {
    const bar = el('div', { class: 'bar' });
    bar.style.width = `${(100 * g.bytes) / max}%`;
    for (const c of g.chunks) {
      codecs.add(c.codec);
      c.encodings.forEach((e) => encodings.add(e));
      const box = el('div', {
        class: 'chunk', 'data-group': String(c.group), 'data-path': c.path, 'data-codec': c.codec,
        'data-encodings': c.encodings.join(','), 'data-bytes': String(c.bytes), 'data-uncompressed': String(c.uncompressed),
      }, el('div', { class: 'label' }, `${c.path} ${size(c.bytes)}`));
      // A label too long for its box ends in an ellipsis; hovering shows it whole, first in the tip.
      box.style.flexGrow = String(Math.max(c.bytes, 1));
      box.style.background = codecColour(c.codec);
      hover(box.firstElementChild as HTMLElement, () => [
        `${c.path} ${size(c.bytes)} · ${g.label}`,
        `${c.codec} [${c.encodings.join(', ')}] ${c.values} values`,
        `${size(c.bytes)} stored, ${size(c.uncompressed)} uncompressed (${ratio(c.uncompressed, c.bytes)})`,
        c.stats ? `statistics\n${describe(c.stats)}` : '',
      ].filter(Boolean).join('\n'));
      bar.append(box);
    }
    root.append(el('div', { class: 'group', 'data-rows': String(g.rows), 'data-bytes': String(g.bytes) },
      el('div', { class: 'group-head' }, `${g.label}: ${g.rows} rows, ${size(g.bytes)} stored, ${size(g.uncompressed)} uncompressed (${ratio(g.uncompressed, g.bytes)})`),
      bar));
  }
  const legend = el('div', { class: 'legend' }, 'codecs: ');
  for (const c of codecs) legend.append(swatch(codecColour(c), c));
  legend.append(' encodings: ');
  for (const e of encodings) legend.append(swatch(encodingColour(e), e));
  root.prepend(legend);
  return root;
}

function swatch(colour: string, name: string): HTMLElement {
  const s = el('span', { class: 'swatch' }, name);
  s.style.borderLeftColor = colour;
  return s;
}

/** Page headers are read after the first paint, chunk by chunk, so a big file shows at once. */
async function fillPages(file: Opened, root: HTMLElement): Promise<void> {
  const boxes = root.querySelectorAll<HTMLElement>('.chunk');
  const chunks = file.groups.flatMap((g: GroupBox) => g.chunks);
  for (let i = 0; i < chunks.length; i++) {
    await file.loadPages(chunks[i]!);
    drawPages(boxes[i]!, chunks[i]!);
  }
  root.setAttribute('data-pages', 'done');
}

async function show(input: Input): Promise<void> {
  const status = $('status');
  status.textContent = `opening ${input.name ?? 'file'}…`;
  const file = await openFile(input);
  $('intro').hidden = true;
  $('main').hidden = false;
  $('summary').replaceChildren(
    ...([['file', file.name], ['format', file.dialect ? `${file.kind} (${file.dialect})` : file.kind], ['size', `${file.size} bytes`], ['rows', String(file.rows)],
      file.kind === 'trevni' ? ['columns', String(file.groups[0]!.chunks.length)] : file.groups.length === 0 ? ['columns', String(file.columns.length)] : ['row groups', String(file.groups.length)],
      ...('files' in input ? [['files', String(input.files.length)]] : [])] as const)
      .flatMap(([k, v]) => [el('dt', {}, k), el('dd', { 'data-key': k }, v)]),
  );
  $('schema').replaceChildren(el('ul', {}, renderTree(file.schema)));
  const layout = renderLayout(file);
  $('layout').replaceChildren(layout);
  const table = new DataTable(file);
  await table.reset(file.rows);
  const where = $<HTMLInputElement>('where');
  const form = $<HTMLFormElement>('filter');
  where.disabled = !file.filter;
  where.placeholder = file.filter ? "--where syntax, e.g. id > 3 AND name IN ('a', 'b')" : `no filter for ${file.kind === 'trevni' ? 'Trevni' : 'RedElm'} files`;
  form.onsubmit = async (e) => {
    e.preventDefault();
    const count = $('count');
    count.removeAttribute('data-count');
    try {
      if (!where.value.trim() || !file.filter) {
        count.textContent = '';
        await table.reset(file.rows);
      } else {
        const filter = file.filter(where.value);
        count.textContent = 'counting…';
        const matches = await file.matches(filter);
        count.textContent = `${matches.length} of ${file.rows} rows match`;
        await table.reset(matches.length, filter, matches);
      }
      count.setAttribute('data-count', String(table.total));
    } catch (err) {
      count.textContent = (err as Error).message;
      count.setAttribute('data-error', (err as Error).name);
    }
  };
  status.textContent = '';
  await fillPages(file, layout);
}

function report(e: unknown): void {
  $('status').textContent = `${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? e}`;
  $('status').setAttribute('data-error', 'true');
}

async function openUrl(url: string): Promise<void> {
  await show(await httpSource(new URL(url, location.href).href));
}

/** A dataset `parquetry view` serves: the list of its files' URLs, then the files as one table. */
async function openDataset(url: string): Promise<void> {
  const got = await fetch(new URL(url, location.href));
  if (!got.ok) throw new Error(`${url}: HTTP ${got.status}`);
  await show((await got.json()) as Input);
}

const params = new URLSearchParams(location.search);
const initial = params.get('url');
const dataset = params.get('dataset');
if (initial) openUrl(initial).catch(report);
else if (dataset) openDataset(dataset).catch(report);
$<HTMLInputElement>('pick').onchange = (e) => {
  const f = (e.target as HTMLInputElement).files?.[0];
  if (f) show(blobSource(f)).catch(report);
};
$<HTMLFormElement>('open-url').onsubmit = (e) => {
  e.preventDefault();
  openUrl($<HTMLInputElement>('url').value).catch(report);
};
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  e.preventDefault();
  const f = e.dataTransfer?.files[0];
  if (f) show(blobSource(f)).catch(report);
});
