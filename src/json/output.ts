/** Text built from spans of the original and new pieces; neighbouring spans join into one slice. */
export class Output {
  private readonly parts: string[] = [];
  private spanStart = -1;
  private spanEnd = -1;

  constructor(private readonly original: string) {}

  /** The original text from `start` to `end`. */
  span(start: number, end: number): void {
    if (start === end) return;
    if (start === this.spanEnd) {
      this.spanEnd = end;
      return;
    }
    this.flush();
    this.spanStart = start;
    this.spanEnd = end;
  }

  fresh(text: string): void {
    this.flush();
    this.parts.push(text);
  }

  text(): string {
    this.flush();
    return this.parts.join('');
  }

  private flush(): void {
    if (this.spanStart < 0) return;
    this.parts.push(this.original.slice(this.spanStart, this.spanEnd));
    this.spanStart = this.spanEnd = -1;
  }
}
