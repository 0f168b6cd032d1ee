/**
 * The text format of the metadata cache: a flat run of cells read in the order they were written, with
 * no per-value parsing beyond slicing one decoded string (strings come back as slices of it).
 *
 * - a number: its shortest round-trip decimal text, then `;`
 * - a string: its length in UTF-16 code units, `:`, then the string itself (any characters)
 * - a value: one tag character — `s` string, `t`/`f` booleans, `o` an empty object, `a` an empty
 *   array, `u` undefined, `d` "derived" (filled in by the reader from elsewhere), `j` JSON text
 *   (as a string) for anything else
 *
 * Strings holding lone surrogates (which UTF-8 cannot carry) are written as JSON, which escapes them.
 */
export class CellWriter {
  readonly #parts: string[] = [];

  /** A finite number. */
  num(value: number): this {
    if (!Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    this.#parts.push(`${value};`);
    return this;
  }

  /** A non-negative integer (a count or an index). */
  count(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`not a count: ${value}`);
    this.#parts.push(`${value};`);
    return this;
  }

  /** One tag character, read back by {@link CellReader.tag}. */
  tag(char: string): this {
    if (char.length !== 1) throw new TypeError("a tag is one character");
    this.#parts.push(char);
    return this;
  }

  /** A string, which must be well-formed (no lone surrogates). */
  str(value: string): this {
    if (LONE_SURROGATE.test(value)) throw new TypeError("a string with a lone surrogate");
    this.#parts.push(`${value.length}:`, value);
    return this;
  }

  /** The "derived" marker (see {@link CellReader.value}). */
  derived(): this {
    this.#parts.push("d");
    return this;
  }

  /** Any JSON-safe value, or undefined. */
  value(value: unknown): this {
    if (typeof value === "string" && !LONE_SURROGATE.test(value)) {
      this.#parts.push("s", `${value.length}:`, value);
    } else if (value === true) this.#parts.push("t");
    else if (value === false) this.#parts.push("f");
    else if (value === undefined) this.#parts.push("u");
    else if (Array.isArray(value) && value.length === 0) this.#parts.push("a");
    else if (isEmptyPlainObject(value)) this.#parts.push("o");
    else {
      const json = JSON.stringify(value);
      if (json === undefined) throw new TypeError(`not JSON-safe: ${typeof value}`);
      this.#parts.push("j", `${json.length}:`, json);
    }
    return this;
  }

  /** The cells written so far, as text. */
  text(): string {
    return this.#parts.join("");
  }
}

const LONE_SURROGATE = /\p{Cs}/u;

function isEmptyPlainObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const _ in value) return false;
  return true;
}

/** Thrown by {@link CellReader} on text it cannot read as the cells asked for. */
export class CellFormatError extends Error {}

/** A marker returned by {@link CellReader.value} for a `d` cell. */
export const DERIVED: unique symbol = Symbol("derived");

/** Reads the cells of a {@link CellWriter} in order; throws {@link CellFormatError} on malformed text. */
export class CellReader {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  /** True when every cell has been read. */
  get done(): boolean {
    return this.#at === this.#text.length;
  }

  num(): number {
    const end = this.#text.indexOf(";", this.#at);
    if (end <= this.#at) throw new CellFormatError(`number expected at ${this.#at}`);
    const value = Number(this.#text.slice(this.#at, end));
    if (!Number.isFinite(value)) throw new CellFormatError(`number expected at ${this.#at}`);
    this.#at = end + 1;
    return value;
  }

  /** A count or index: a non-negative integer. */
  count(): number {
    const value = this.num();
    if (!Number.isSafeInteger(value) || value < 0)
      throw new CellFormatError(`count expected before ${this.#at}`);
    return value;
  }

  str(): string {
    const text = this.#text;
    const colon = text.indexOf(":", this.#at);
    if (colon <= this.#at || colon - this.#at > 10)
      throw new CellFormatError(`string expected at ${this.#at}`);
    let length = 0;
    for (let i = this.#at; i < colon; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) throw new CellFormatError(`string length expected at ${this.#at}`);
      length = length * 10 + digit;
    }
    const end = colon + 1 + length;
    if (end > text.length) throw new CellFormatError(`string at ${this.#at} runs past the end`);
    this.#at = end;
    return text.slice(colon + 1, end);
  }

  /** One tag character. */
  tag(): string {
    if (this.#at >= this.#text.length) throw new CellFormatError("unexpected end");
    return this.#text[this.#at++]!;
  }

  /** A value cell: what {@link CellWriter.value} wrote, or {@link DERIVED}. */
  value(): unknown {
    const tag = this.tag();
    switch (tag) {
      case "s":
        return this.str();
      case "t":
        return true;
      case "f":
        return false;
      case "u":
        return undefined;
      case "a":
        return [];
      case "o":
        return {};
      case "d":
        return DERIVED;
      case "j":
        try {
          return JSON.parse(this.str()) as unknown;
        } catch (error) {
          if (error instanceof CellFormatError) throw error;
          throw new CellFormatError(`bad JSON before ${this.#at}`);
        }
      default:
        throw new CellFormatError(`unknown cell ${JSON.stringify(tag)} before ${this.#at}`);
    }
  }
}
