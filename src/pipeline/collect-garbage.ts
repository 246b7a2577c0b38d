import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null | undefined;

/**
 * A full collection, now. After a big file is loaded the JS heap is small (the entries are in
 * typed arrays) but the arrays its columns grew out of are still held until the next full
 * collection, which V8 may put off past the analysis that follows: tens of megabytes of peak
 * memory on a gigabyte file, for a collection that costs a few milliseconds. Without the
 * collector exposed (some embedders refuse the flag) it does nothing.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
