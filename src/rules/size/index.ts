import type { Rule } from '../rule.js';
import { contextWindowExceeded } from './context-window-exceeded.js';
import { contextWindowNear } from './context-window-near.js';
import { imageTooLarge } from './image-too-large.js';
import { requestTooLarge } from './request-too-large.js';
import { stringTooLong } from './string-too-long.js';
import { tooManyToolCalls } from './too-many-tool-calls.js';
import { tooMuchMedia } from './too-much-media.js';

/** The size family: what makes a request too big for the provider, measured on the replayed path. */
export const sizeRules: readonly Rule[] = [contextWindowExceeded, contextWindowNear, requestTooLarge, imageTooLarge, tooMuchMedia, stringTooLong, tooManyToolCalls];

export { contextWindowExceeded, contextWindowNear, imageTooLarge, requestTooLarge, stringTooLong, tooManyToolCalls, tooMuchMedia };
