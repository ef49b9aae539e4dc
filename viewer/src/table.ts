/**
 * The data table: it fills the space the page gives it, and only the rows
 * in view are in the DOM, read a block of BLOCK rows at a time (by offset
 * and limit, so a row group is decoded only when its rows come into view).
 * The last CACHED blocks are kept, so scrolling back and forth reads
 * nothing again while memory stays bounded however far one scrolls.
 * Columns resize by dragging a header's right edge; a click or the arrow
 * keys select a cell, shown whole in the detail panel; a header click sorts
 * (sort.ts).
 */
import type { Filter, LeafNode } from 'parquetry';
import { valueTree } from './detail.js';
import { $, el } from './dom.js';
import { cell } from './format.js';
import type { Opened } from './model.js';
import { SORT_MAX_ROWS, compareValues, sortRows } from './sort.js';

type Row = Record<string, unknown>;

const ROW_HEIGHT = 24;
const BLOCK = 100;
const CACHED = 50;
/**
 * Browsers cap an element's height (headless Chromium at about 8 million
 * px): the spacer stops below that, and past it draw() maps the scroll bar
 * onto the rows in proportion.
 */
const MAX_SPACER = 4_000_000;
const NUMBER_WIDTH = 80;
const COLUMN_WIDTH = 160;
const MIN_WIDTH = 40;

interface Sort {
  column: number;
  descending: boolean;
  /** The file's rows in order, once the whole-file sort is done; until then the rows in view are sorted. */
  order?: Int32Array;
}

export class DataTable {
  private blocks = new Map<number, Promise<Row[]>>();
  total = 0;
  private filter: Filter | undefined;
  /** Under a filter: the file row number of each match. */
  private matches: number[] | undefined;
  private drawn = '';
  private readonly scroller = $('rows');
  private readonly body = $('rows-body');
  private readonly spacer = $('rows-spacer');
  private readonly table = $<HTMLTableElement>('rows-table');
  private readonly cols: HTMLTableColElement[];
  private readonly widths: number[];
  /** What is drawn: each row's place in the view, its file row number (when known) and its values. */
  private shown: { index: number; fileRow: number | undefined; row: Row | undefined }[] = [];
  private selected: { index: number; column: number } | undefined;
  private sort: Sort | undefined;
  private sorting: AbortController | undefined;

  constructor(private readonly file: Opened) {
    this.scroller.onscroll = () => void this.draw();
    new ResizeObserver(() => void this.draw()).observe(this.scroller);
    this.widths = [NUMBER_WIDTH, ...file.columns.map(() => COLUMN_WIDTH)];
    this.cols = this.widths.map(() => el('col'));
    this.table.querySelector('colgroup')?.remove();
    this.table.prepend(el('colgroup', {}, ...this.cols));
    const heads = ['#', ...file.columns].map((name, i) => {
      const grip = el('span', { class: 'grip', title: 'drag to resize' });
      const th = el('th', { 'data-column': String(i - 1) }, el('span', { class: 'title' }, name), el('span', { class: 'arrow' }), grip);
      grip.onmousedown = (e) => this.resize(e, i);
      if (i > 0) th.onclick = (e) => void (e.target !== grip && this.sortBy(i - 1));
      return th;
    });
    $('rows-head').replaceChildren(el('tr', {}, ...heads));
    this.layoutColumns();
    this.scroller.tabIndex = 0;
    this.scroller.onkeydown = (e) => this.key(e);
    this.body.onclick = (e) => {
      const td = (e.target as HTMLElement).closest('td');
      const tr = td?.parentElement;
      if (!td || !tr || td.cellIndex === 0) return;
      this.select(Number(tr.dataset.row), td.cellIndex - 1);
    };
  }

  private layoutColumns(): void {
    this.widths.forEach((w, i) => (this.cols[i]!.style.width = `${w}px`));
    this.table.style.width = `${this.widths.reduce((a, b) => a + b, 0)}px`;
  }

  /** Dragging column `i`'s header edge: its width follows the pointer. */
  private resize(down: MouseEvent, i: number): void {
    down.preventDefault();
    down.stopPropagation();
    const start = this.widths[i]!;
    const move = (e: MouseEvent) => {
      this.widths[i] = Math.max(MIN_WIDTH, Math.round(start + e.clientX - down.clientX));
      this.layoutColumns();
    };
    const up = () => {
      document.removeEventListener('mousemove', move);
      document.removeEventListener('mouseup', up);
    };
    document.addEventListener('mousemove', move);
    document.addEventListener('mouseup', up);
  }

  /** Shows every row, or (given `filter` and `matches`, the file row numbers of its rows) the rows matching. */
  async reset(total: number, filter?: Filter, matches?: number[]): Promise<void> {
    this.cancelSort();
    this.sort = undefined;
    this.total = total;
    this.filter = filter;
    this.matches = matches;
    $('sort-status').replaceChildren();
    this.blocks.clear();
    this.selected = undefined;
    this.showDetail();
    this.markSort();
    // One more row for the header, so the last row scrolls fully into view.
    this.spacer.style.height = `${Math.min((total + 1) * ROW_HEIGHT, MAX_SPACER)}px`;
    this.scroller.scrollTop = 0;
    await this.draw(true);
  }

  private block(b: number, filter: Filter | undefined): Promise<Row[]> {
    let p = this.blocks.get(b);
    if (p) return p;
    p = this.file.read(b * BLOCK, BLOCK, filter);
    this.blocks.set(b, p);
    // A Map iterates in insertion order: the first key is the oldest block.
    if (this.blocks.size > CACHED) this.blocks.delete(this.blocks.keys().next().value!);
    return p;
  }

  /** The row at `index` of the view: a file row (unfiltered, or through a whole-file sort's order), else the index-th match. */
  private async rowAt(index: number): Promise<{ fileRow: number | undefined; row: Row | undefined }> {
    const order = this.sort?.order;
    const fileRow = order ? order[index]! : this.matches ? this.matches[index] : index;
    // A filtered view reads its index-th match, as the filtered read counts rows.
    const at = order || !this.filter ? fileRow! : index;
    return { fileRow, row: (await this.block(Math.floor(at / BLOCK), order ? undefined : this.filter))[at % BLOCK] };
  }

  async draw(force = false): Promise<void> {
    const top = this.scroller.scrollTop;
    const count = Math.ceil(this.scroller.clientHeight / ROW_HEIGHT) + 1;
    const height = this.spacer.offsetHeight;
    // Past MAX_SPACER the scroll bar maps onto the rows in proportion, the last row at the bottom.
    const scaled = (this.total + 1) * ROW_HEIGHT > height;
    const first = scaled
      ? Math.round((top / Math.max(1, height - this.scroller.clientHeight)) * Math.max(0, this.total - count + 2))
      : Math.floor(top / ROW_HEIGHT);
    const last = Math.min(this.total, first + count);
    const key = `${first},${last},${this.sort?.column},${this.sort?.descending},${this.sort?.order ? 'file' : 'window'}`;
    if (key === this.drawn && !force) return;
    this.drawn = key;
    const shown: DataTable['shown'] = [];
    for (let i = first; i < last; i++) {
      const r = await this.rowAt(i);
      if (this.drawn !== key) return; // scrolled on meanwhile
      shown.push({ index: i, ...r });
    }
    const sort = this.sort;
    if (sort && !sort.order) {
      // Until the whole file is sorted (or where it is not), the rows in view are: at once, from memory.
      const leaf = this.sortLeaf(sort.column);
      const name = this.file.columns[sort.column]!;
      const rows = shown.map((s) => s.row);
      rows.sort((a, b) => {
        const x = a?.[name];
        const y = b?.[name];
        if (x === null || x === undefined) return y === null || y === undefined ? 0 : 1;
        if (y === null || y === undefined) return -1;
        const c = leaf ? compareValues(leaf, x, y) : 0;
        return sort.descending ? -c : c;
      });
      // The rows move; their places in the view stay.
      const numbers = new Map(shown.map((s) => [s.row, s.fileRow]));
      shown.forEach((s, i) => Object.assign(s, { row: rows[i], fileRow: numbers.get(rows[i]) }));
    }
    this.shown = shown;
    this.table.style.top = `${scaled ? top : first * ROW_HEIGHT}px`;
    this.body.replaceChildren(...shown.map((s) => el('tr', { 'data-row': String(s.index), ...(s.fileRow !== undefined ? { 'data-file-row': String(s.fileRow) } : {}) },
      el('td', {}, s.fileRow === undefined ? '?' : String(s.fileRow)),
      ...this.file.columns.map((c, k) => el('td', this.selected?.index === s.index && this.selected.column === k ? { class: 'selected' } : {}, cell(s.row?.[c]))))));
    this.scroller.setAttribute('data-first', String(first));
    this.showDetail();
  }

  private select(index: number, column: number): void {
    this.selected = { index, column };
    const first = Number(this.scroller.dataset.first);
    const visible = Math.floor((this.scroller.clientHeight - ROW_HEIGHT) / ROW_HEIGHT);
    // Kept in view: the header row covers the first ROW_HEIGHT px.
    if (index < first) this.scroller.scrollTop = index * ROW_HEIGHT;
    else if (index >= first + visible) this.scroller.scrollTop = (index - visible + 1) * ROW_HEIGHT;
    void this.draw(true);
  }

  private key(e: KeyboardEvent): void {
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const move = moves[e.key];
    if (!move || this.total === 0 || this.file.columns.length === 0) return;
    e.preventDefault();
    const { index, column } = this.selected ?? { index: Number(this.scroller.dataset.first), column: 0 };
    this.select(Math.min(this.total - 1, Math.max(0, index + move[0])), Math.min(this.file.columns.length - 1, Math.max(0, column + move[1])));
  }

  private showDetail(): void {
    const panel = $('detail');
    const s = this.selected && this.shown.find((r) => r.index === this.selected!.index);
    if (!this.selected || !s) {
      panel.replaceChildren(el('p', { class: 'hint' }, 'Select a cell (click, or the arrow keys) to see its value whole.'));
      panel.removeAttribute('data-row');
      return;
    }
    const name = this.file.columns[this.selected.column]!;
    panel.setAttribute('data-row', String(s.fileRow ?? ''));
    panel.setAttribute('data-column', name);
    panel.replaceChildren(el('h3', {}, `${name} · row ${s.fileRow ?? '?'}`), valueTree(s.row?.[name]));
  }

  /** Column `i` as a top-level leaf, the only columns that sort. */
  private sortLeaf(i: number): LeafNode | undefined {
    const node = this.file.table.schema.root.isLeaf ? undefined : this.file.table.schema.root.children.find((c) => c.name === this.file.columns[i]);
    return node?.isLeaf ? node : undefined;
  }

  /** A header click: ascending, then descending, then file order again. */
  private sortBy(column: number): void {
    const status = $('sort-status');
    this.cancelSort();
    const leaf = this.sortLeaf(column);
    if (!leaf) {
      status.textContent = `${this.file.columns[column]} is nested: only top-level columns of single values sort`;
      return;
    }
    const prev = this.sort?.column === column ? this.sort : undefined;
    this.sort = !prev ? { column, descending: false } : !prev.descending ? { column, descending: true } : undefined;
    this.markSort();
    status.replaceChildren();
    if (!this.sort) {
      void this.draw(true);
      return;
    }
    const sort = this.sort;
    // The rows in view sort at once; the whole file where it may.
    void this.draw(true);
    if (this.filter) status.textContent = 'sorted the rows in view: a filtered view sorts only its window';
    else if (this.total > SORT_MAX_ROWS) status.textContent = `sorted the rows in view: a whole-file sort takes up to ${SORT_MAX_ROWS.toLocaleString('en')} rows`;
    else void this.sortFile(sort, leaf);
  }

  private async sortFile(sort: Sort, leaf: LeafNode): Promise<void> {
    const status = $('sort-status');
    const job = new AbortController();
    this.sorting = job;
    const text = el('span');
    const cancel = el('button', { type: 'button', id: 'sort-cancel' }, 'cancel');
    cancel.onclick = () => job.abort(new Error('sort cancelled'));
    status.replaceChildren(text, ' ', cancel);
    status.setAttribute('data-state', 'running');
    try {
      sort.order = await sortRows(this.file.table, leaf, sort.descending, job.signal, (done, total) => {
        const pct = Math.floor((100 * done) / Math.max(1, total));
        text.textContent = `sorting the file by ${leaf.name}: ${pct}%`;
        status.setAttribute('data-progress', String(pct));
      });
      if (this.sort !== sort) return;
      status.textContent = `sorted the file by ${leaf.name}${sort.descending ? ', descending' : ''}`;
      status.setAttribute('data-state', 'done');
      this.markSort();
      this.scroller.scrollTop = 0;
      await this.draw(true);
    } catch (e) {
      if (!job.signal.aborted) throw e;
      // Cancelled by another sort or a new filter, that one says what it does.
      if (this.sort !== sort) return;
      status.textContent = `whole-file sort cancelled: the rows in view are sorted`;
      status.setAttribute('data-state', 'cancelled');
    } finally {
      if (this.sorting === job) this.sorting = undefined;
    }
  }

  private cancelSort(): void {
    this.sorting?.abort(new Error('sort cancelled'));
    this.sorting = undefined;
  }

  private markSort(): void {
    for (const th of Array.from($('rows-head').querySelectorAll<HTMLElement>('th'))) {
      const on = this.sort && th.dataset.column === String(this.sort.column);
      th.querySelector('.arrow')!.textContent = on ? (this.sort!.descending ? ' ▼' : ' ▲') : '';
      if (on) th.setAttribute('data-sort', this.sort!.order ? 'file' : 'window');
      else th.removeAttribute('data-sort');
    }
  }
}
