/**
 * Exports whose module loads on first use. The entry points export the whole
 * API, but a process that only reads a footer should not compile the writers,
 * Trevni, RedElm, recovery and conversion to do it (BENCHMARKS.md,
 * "Startup"). Each wrapper stands for an export whose API is already
 * asynchronous (an async function, an async generator function, a class
 * entered by `static async open`), so loading its module first changes
 * nothing a caller sees; the types are the real export's.
 *
 * The wrappers are marked free of side effects, so a bundler drops the
 * unused ones together with the import() they hold.
 */

/** A module loaded once, on the first call; `loaded` is it once it has loaded. */
export interface LazyModule<M> {
  (): Promise<M>;
  loaded?: M;
}

/** The names of M's exports that are of type T. */
type NamesOf<M, T> = { [K in keyof M]: M[K] extends T ? K : never }[keyof M] & string;
type AsyncFn = (...args: never[]) => Promise<unknown>;
type AsyncGen = (...args: never[]) => AsyncGenerator<unknown>;
type Opened = { open(...args: never[]): Promise<unknown> };

/** A failed load (a missing file, say) is forgotten, so the next call tries again. */
/* @__NO_SIDE_EFFECTS__ */
export function lazyModule<M>(load: () => Promise<M>): LazyModule<M> {
  let loading: Promise<M> | undefined;
  const mod: LazyModule<M> = () => (loading ??= load().then(
    (m) => (mod.loaded = m),
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  ));
  return mod;
}

/**
 * An async function: the call waits for the module, then runs the real one.
 * `load` may be a bare `() => import(...)`: the runtime keeps a module once
 * loaded, so a second import() only resolves.
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazyAsync<M, K extends NamesOf<M, AsyncFn>>(load: () => Promise<M>, name: K): M[K] {
  const fn = async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => Promise<unknown>)(...args);
  return Object.defineProperty(fn, 'name', { value: name }) as unknown as M[K];
}

/** An async generator function: nothing loads before the first `next()`, as nothing of the real one runs before it. */
/* @__NO_SIDE_EFFECTS__ */
export function lazyGenerator<M, K extends NamesOf<M, AsyncGen>>(load: () => Promise<M>, name: K): M[K] {
  const fn = async function* (...args: unknown[]) {
    return yield* ((await load())[name] as (...a: unknown[]) => AsyncGenerator<unknown>)(...args);
  };
  return Object.defineProperty(fn, 'name', { value: name }) as unknown as M[K];
}

/**
 * A class whose constructor is private, entered by `static async open(...)`:
 * `X.open(...)` loads the module and returns an instance of the real class.
 * `v instanceof X` asks the real class once the module has loaded, by this
 * wrapper or any other of the same `mod` (an instance cannot exist before).
 */
/* @__NO_SIDE_EFFECTS__ */
export function lazyClass<M, K extends NamesOf<M, Opened>>(mod: LazyModule<M>, name: K): M[K] {
  type Real = (abstract new (...args: never[]) => unknown) & { open(...args: unknown[]): Promise<unknown> };
  const facade = {
    [name]: class {
      constructor() {
        throw new TypeError(`${name} has no public constructor: use ${name}.open()`);
      }

      static async open(...args: unknown[]): Promise<unknown> {
        return ((await mod())[name] as Real).open(...args);
      }

      static [Symbol.hasInstance](v: unknown): boolean {
        const real = mod.loaded?.[name] as Real | undefined;
        return real !== undefined && v instanceof real;
      }
    },
  }[name]!;
  return facade as unknown as M[K];
}
