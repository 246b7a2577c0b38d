/** The size limits a request meets: context windows per model, and every other limit per provider and gateway. */
export { contextWindow, type ContextWindow } from './context-windows.js';
export { GATEWAY_NAMES, type Gateway } from './gateway.js';
export { mediaLimit, sizeLimits, type ImageSizeLimits, type MediaLimits, type SizeLimits } from './size-limits.js';
export { sizeText, type SizeAt, type SizeProblem } from './size-texts.js';
export { limit, lower, type Limit, type Route } from './sourced.js';
export { judgeName, judgeSize, type SizeJudge } from './judge.js';
