/**
 * The viewer page: opens a file given by `?url=` (read with HTTP range
 * requests), or dropped or picked (read by Blob slices); nothing is sent
 * anywhere. Plain DOM: the page is a few panels, no framework needed.
 */
import { blobSource, httpSource, type Filter, type Source } from 'parquetry';
import { formatBytes as size } from 'parquetry/inspect';
import { cell } from './format.js';
import { openFile, type ChunkBox, type GroupBox, type Opened, type PageBox, type TreeNode } from './model.js';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

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
      box.style.flexGrow = String(Math.max(c.bytes, 1));
      box.style.background = codecColour(c.codec);
      hover(box.firstElementChild as HTMLElement, () => [
        `${g.label} · ${c.path}`,
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

const ROW_HEIGHT = 24;
const BLOCK = 100;
const CACHED = 50;
/**
 * Browsers cap an element's height (headless Chromium at about 8 million
 * px): the spacer stops below that, and past it draw() maps the scroll bar
 * onto the rows in proportion.
 */
const MAX_SPACER = 4_000_000;

/**
 * The data table: a spacer as tall as all rows, and only the rows in view
 * drawn, read a block of BLOCK rows at a time (by offset and limit, so a
 * row group is decoded only when its rows come into view). The last
 * CACHED blocks are kept, so scrolling back and forth reads nothing again
 * while memory stays bounded however far one scrolls.
 */
class DataTable {
  private blocks = new Map<number, Promise<Record<string, unknown>[]>>();
  total = 0;
  private filter: Filter | undefined;
  private drawn = -1;
  private readonly scroller = $('rows');
  private readonly body = $('rows-body');
  private readonly spacer = $('rows-spacer');
  private readonly table = $('rows-table');

  constructor(private readonly file: Opened) {
    this.scroller.onscroll = () => void this.draw();
    $('rows-head').replaceChildren(el('tr', {}, el('th', {}, '#'), ...file.columns.map((c) => el('th', {}, c))));
  }

  async reset(total: number, filter?: Filter): Promise<void> {
    this.total = total;
    this.filter = filter;
    this.blocks.clear();
    this.drawn = -1;
    // One more row for the header, so the last row scrolls fully into view.
    this.spacer.style.height = `${Math.min((total + 1) * ROW_HEIGHT, MAX_SPACER)}px`;
    this.scroller.scrollTop = 0;
    await this.draw();
  }

  private block(b: number): Promise<Record<string, unknown>[]> {
    let p = this.blocks.get(b);
    if (p) return p;
    p = this.file.read(b * BLOCK, BLOCK, this.filter);
    this.blocks.set(b, p);
    // A Map iterates in insertion order: the first key is the oldest block.
    if (this.blocks.size > CACHED) this.blocks.delete(this.blocks.keys().next().value!);
    return p;
  }

  async draw(): Promise<void> {
    const top = this.scroller.scrollTop;
    const count = Math.ceil(this.scroller.clientHeight / ROW_HEIGHT) + 1;
    const height = this.spacer.offsetHeight;
    // Past MAX_SPACER the scroll bar maps onto the rows in proportion, the last row at the bottom.
    const scaled = (this.total + 1) * ROW_HEIGHT > height;
    const first = scaled
      ? Math.round((top / Math.max(1, height - this.scroller.clientHeight)) * Math.max(0, this.total - count + 2))
      : Math.floor(top / ROW_HEIGHT);
    const last = Math.min(this.total, first + count);
    const key = first * 1e9 + last;
    if (key === this.drawn) return;
    this.drawn = key;
    const rows: HTMLElement[] = [];
    for (let i = first; i < last; i++) {
      const row = (await this.block(Math.floor(i / BLOCK)))[i % BLOCK];
      if (this.drawn !== key) return; // scrolled on meanwhile
      rows.push(el('tr', { 'data-row': String(i) }, el('td', {}, String(i)), ...this.file.columns.map((c) => el('td', {}, cell(row?.[c])))));
    }
    this.table.style.top = `${scaled ? top : first * ROW_HEIGHT}px`;
    this.body.replaceChildren(...rows);
    this.scroller.setAttribute('data-first', String(first));
  }
}

async function show(source: Source): Promise<void> {
  const status = $('status');
  status.textContent = `opening ${source.name ?? 'file'}…`;
  const file = await openFile(source);
  $('intro').hidden = true;
  $('main').hidden = false;
  $('summary').replaceChildren(
    ...([['file', file.name], ['format', file.dialect ? `${file.kind} (${file.dialect})` : file.kind], ['size', `${file.size} bytes`], ['rows', String(file.rows)],
      file.kind === 'trevni' ? ['columns', String(file.groups[0]!.chunks.length)] : file.groups.length === 0 ? ['columns', String(file.columns.length)] : ['row groups', String(file.groups.length)]] as const)
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
        const n = await file.count(filter);
        count.textContent = `${n} of ${file.rows} rows match`;
        await table.reset(n, filter);
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

const params = new URLSearchParams(location.search);
const initial = params.get('url');
if (initial) openUrl(initial).catch(report);
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
