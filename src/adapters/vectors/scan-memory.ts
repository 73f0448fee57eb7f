/**
 * One snapshot's vectors, their sign codes and the scan's per-query buffers, laid out in a
 * WebAssembly memory of its own, with the scan kernels (kernels.wat) instantiated over it. The
 * kernels read the rows where they are: nothing is copied per query. A memory per snapshot is
 * dropped with the snapshot; its 64 KB page is less than the 128 KB of the smallest snapshot
 * that grows (64 vectors at 512-d).
 */
import kernels from "./kernels.wasm";

interface Kernels {
  hamming(codes: number, words: number, n: number, query: number, distances: number, histogram: number): void;
  dots(data: number, dimensions: number, query: number, slots: number, count: number, scores: number): void;
}

const PAGE_BYTES = 65_536;
/** v128 loads of a region's start are aligned. */
const ALIGN = 16;

export class ScanMemory {
  /** The unit-normalized vectors, `dimensions` float32 per slot. */
  readonly vectors: Float32Array;
  /** Their sign codes, `words` uint32 per slot. */
  readonly codes: Uint32Array;
  /** The current query, unit-normalized, and its sign code. */
  readonly query: Float32Array;
  readonly queryCode: Uint32Array;
  /** Per-slot Hamming distances of the current query, and how many slots are at each distance. */
  readonly distances: Uint16Array;
  readonly histogram: Uint32Array;
  /** The slots to score, and their scores: the first `count` of each, for `dots(count)`. */
  readonly slots: Int32Array;
  readonly scores: Float32Array;
  private readonly kernels: Kernels;

  constructor(
    readonly dimensions: number,
    readonly words: number,
    readonly capacity: number,
  ) {
    let bytes = 0;
    const reserve = (length: number, bytesPerItem: number) => {
      const at = bytes;
      bytes += Math.ceil((length * bytesPerItem) / ALIGN) * ALIGN;
      return at;
    };
    const at = {
      query: reserve(dimensions, 4),
      queryCode: reserve(words, 4),
      histogram: reserve(words * 32 + 1, 4),
      slots: reserve(capacity, 4),
      scores: reserve(capacity, 4),
      distances: reserve(capacity, 2),
      codes: reserve(capacity * words, 4),
      vectors: reserve(capacity * dimensions, 4),
    };
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE_BYTES)) });
    // Views stay valid: the memory never grows (a larger capacity is a new ScanMemory).
    const buffer = memory.buffer;
    this.query = new Float32Array(buffer, at.query, dimensions);
    this.queryCode = new Uint32Array(buffer, at.queryCode, words);
    this.histogram = new Uint32Array(buffer, at.histogram, words * 32 + 1);
    this.slots = new Int32Array(buffer, at.slots, capacity);
    this.scores = new Float32Array(buffer, at.scores, capacity);
    this.distances = new Uint16Array(buffer, at.distances, capacity);
    this.codes = new Uint32Array(buffer, at.codes, capacity * words);
    this.vectors = new Float32Array(buffer, at.vectors, capacity * dimensions);
    this.kernels = new WebAssembly.Instance(kernels, { env: { memory } }).exports as unknown as Kernels;
  }

  /** Fills `distances` and `histogram` for slots [0, n) against `queryCode`. */
  hamming(n: number): void {
    this.histogram.fill(0);
    const { codes, queryCode, distances, histogram } = this;
    this.kernels.hamming(codes.byteOffset, this.words, n, queryCode.byteOffset, distances.byteOffset, histogram.byteOffset);
  }

  /** Sets `scores[i]` to the float32 dot product of `query` and the vector of `slots[i]`, for i < count. */
  dots(count: number): void {
    const { vectors, query, slots, scores } = this;
    this.kernels.dots(vectors.byteOffset, this.dimensions, query.byteOffset, slots.byteOffset, count, scores.byteOffset);
  }
}
