import { stat } from '../io/named-fs.js';

/** How far a run is: files and bytes done, of the total (bytes known once every file was measured). */
export interface ProgressState {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  /** undefined until every file's size is known. */
  bytesTotal?: number;
}

export interface Progress {
  /** The source at this index of the list is done. */
  done(index: number): void;
  stop(): void;
}

const silent: Progress = { done() {}, stop() {} };

/** How long a run goes before its progress line appears. */
const SHOW_AFTER_MS = 500;

/** Narrower than this, the line would wrap on every update. */
const MIN_COLUMNS = 20;

/**
 * Only for a person watching a terminal: never when standard error is piped or redirected, never
 * under CI (any value of CI: CI=false is still a log nobody watches live), never on a dumb
 * terminal, and never on one that reports no width (the spinner would count its lines as
 * infinite and clear them forever: a pseudo-terminal nobody sized).
 */
export function showProgress(isTTY: boolean | undefined, env: NodeJS.ProcessEnv, columns: number | undefined): boolean {
  return isTTY === true && env.CI === undefined && env.TERM !== 'dumb' && (columns ?? 0) >= MIN_COLUMNS;
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** 1 kB = 1000 B, as `ls -h --si` and package managers count. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

/** The progress line's text, e.g. `Scanning 12/40 files, 3.1 MB/10 MB (31%)`. */
export function renderProgress(verb: string, state: ProgressState): string {
  const files = `${verb} ${state.filesDone}/${state.filesTotal} file${state.filesTotal === 1 ? '' : 's'}`;
  if (state.bytesTotal === undefined || state.bytesTotal === 0) return files;
  const percent = Math.floor((100 * state.bytesDone) / state.bytesTotal);
  return `${files}, ${formatBytes(state.bytesDone)}/${formatBytes(state.bytesTotal)} (${percent}%)`;
}

/** A spinner on stderr with the progress line, for the sources named by `paths` ('-' has no size). */
export async function createProgress(verb: string, paths: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<Progress> {
  if (!showProgress(process.stderr.isTTY, env, process.stderr.columns)) return silent;
  const ora = await loadOra();
  const state: ProgressState = { filesDone: 0, filesTotal: paths.length, bytesDone: 0 };
  const sizes = new Array<number>(paths.length).fill(0);
  const finished = new Array<boolean>(paths.length).fill(false);
  let spinner: ReturnType<Ora> | undefined;
  let stopped = false;
  // Only a run that lasts shows the line: a quick one leaves the terminal as it was.
  const timer = setTimeout(() => {
    if (!stopped) spinner = ora({ stream: process.stderr, text: renderProgress(verb, state) }).start();
  }, SHOW_AFTER_MS);
  timer.unref();
  const refresh = () => {
    if (spinner !== undefined) spinner.text = renderProgress(verb, state);
  };
  // Sizes are measured beside the work; until all are known the line counts files only.
  void measure(paths).then((measured) => {
    measured.forEach((size, index) => (sizes[index] = size));
    state.bytesTotal = measured.reduce((sum, size) => sum + size, 0);
    state.bytesDone = measured.reduce((sum, size, index) => sum + (finished[index] ? size : 0), 0);
    refresh();
  });
  return {
    done(index) {
      if (finished[index]) return;
      finished[index] = true;
      state.filesDone += 1;
      state.bytesDone += sizes[index] ?? 0;
      refresh();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      spinner?.stop();
    },
  };
}

type Ora = (typeof import('ora'))['default'];

/**
 * Loaded only here: pipes and CI never pay for its start-up time. In the CommonJS bundle, Node's
 * interop wraps the bundled ES module once more, so its default export is one level down there.
 */
async function loadOra(): Promise<Ora> {
  const loaded = (await import('ora')) as unknown as { default: Ora | { default: Ora } };
  return typeof loaded.default === 'function' ? loaded.default : loaded.default.default;
}

/** Each path's size in bytes; 0 for standard input and for what cannot be measured. */
async function measure(paths: readonly string[]): Promise<number[]> {
  const sizes: number[] = [];
  const BATCH = 64;
  for (let at = 0; at < paths.length; at += BATCH) {
    const batch = paths.slice(at, at + BATCH);
    sizes.push(...(await Promise.all(batch.map((path) => (path === '-' ? 0 : stat(path).then((info) => info.size, () => 0))))));
  }
  return sizes;
}
