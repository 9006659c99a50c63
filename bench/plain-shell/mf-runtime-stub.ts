// Stand-in for the shell's federation (shell/src/federation/) in the plain (federation-free) shell build of
// bench/shell-cost.ts: the login page and the guard's registration work; loading a remote page fails
// as an unavailable remote would.
export function registerRemotes(_remotes: unknown, _options?: unknown): void {}

export async function loadRemote<T>(id: string): Promise<T | null> {
  throw new Error(`${id}: no remotes in the plain shell build`);
}
