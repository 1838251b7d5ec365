/**
 * A progress bar for long work: redrawn in place on a terminal, plain lines every tenth
 * otherwise (logs, CI). `verb` and `noun` make the lines read "seeded 500/1000 posts".
 */
export class Progress {
  private readonly tty = Boolean(process.stderr.isTTY);
  private readonly started = Date.now();
  private lastTenth = 0;

  constructor(
    private readonly total: number,
    private readonly verb: string,
    private readonly noun: string,
  ) {}

  update(done: number): void {
    const secs = ((Date.now() - this.started) / 1000).toFixed(1);
    if (this.tty) {
      const width = 30;
      const filled = Math.round((done / this.total) * width);
      process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor((done / this.total) * 100)}% ${done}/${this.total} ${this.noun} ${secs}s`);
      return;
    }
    const tenth = Math.floor((done / this.total) * 10);
    if (tenth > this.lastTenth || done === this.total) {
      this.lastTenth = tenth;
      process.stderr.write(`${this.verb} ${done}/${this.total} ${this.noun} (${secs}s)\n`);
    }
  }

  finish(): void {
    if (this.tty) process.stderr.write('\n');
  }
}
