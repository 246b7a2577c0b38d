export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const silent: Progress = { update() {}, stop() {} };

/** A spinner on stderr, only for a person watching a terminal, never under CI. */
export async function createProgress(verb: string, env: NodeJS.ProcessEnv = process.env): Promise<Progress> {
  if (!process.stderr.isTTY || env.CI !== undefined) return silent;
  // Loaded only here: pipes and CI never pay for its start-up time.
  const { default: ora } = await import('ora');
  const spinner = ora({ stream: process.stderr, text: `${verb}…` }).start();
  return {
    update(done, total) {
      spinner.text = `${verb} ${done}/${total} file${total === 1 ? '' : 's'}`;
    },
    stop() {
      spinner.stop();
    },
  };
}
