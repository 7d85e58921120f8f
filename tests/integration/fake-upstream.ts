// Starts tests/fake-upstream/server.mjs (the local stand-in for outside services) on its own port for
// one test file, and waits until it answers.
import { spawn } from "node:child_process";
import { createServer } from "node:net";

/**
 * A port nobody listens on now, from the OS: test files, parallel vitest runs and Stryker workers each get
 * their own fake upstream without agreeing on numbers.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startFakeUpstream(port: number, flags: string[] = []) {
  const child = spawn("node", ["tests/fake-upstream/server.mjs", "--port", String(port), ...flags], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (
      await fetch(`${url}/__health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, stop: () => child.kill() };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`fake upstream did not start on port ${port}`);
}
