/** Whether a process with this id is running (EPERM: it exists but belongs to someone else). For stale-file cleanup. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
