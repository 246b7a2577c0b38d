/**
 * Lock file bodies that name no usable pid: the unit test of lockPid and the commit tests
 * that must go ahead despite such a lock share them. kill(0, 0) and kill(-1, 0) address process
 * groups and would always succeed, so 0 and negative pids must not count.
 */
export const UNREADABLE_LOCKS: Array<[name: string, body: string]> = [
  ['not JSON', '{"pid": 12'],
  ['empty', ''],
  ['no pid', '{"createdAt":"2026-01-01T00:00:00Z"}'],
  ['pid 0', '{"pid":0}'],
  ['negative pid', '{"pid":-1}'],
  ['negative pid as text', '{"pid":"-1"}'],
  ['fractional pid', '{"pid":12.5}'],
  ['pid with other text', '{"pid":"12 and more"}'],
  ['JSON null', 'null'],
];
