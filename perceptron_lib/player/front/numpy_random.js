/**
 * numpy's random permutations, bit for bit: `np.random.default_rng(seed).permutation(n)`.
 *
 * `fit_perceptron(order="random", rng=seed)` visits each epoch's examples in the order of a fresh
 * `gen.permutation(n)` from one generator. The browser makes the same run with no kernel, for any
 * number of points the student places, by drawing the same permutations: numpy's SeedSequence
 * (seed -> 128-bit state), its PCG64 generator (a 128-bit LCG with the XSL-RR output), its 32-bit
 * draws (each 64-bit output gives two, low half first), its bounded integers (`random_interval`:
 * mask and reject) and its shuffle (Fisher-Yates from the last index down). The test of this file
 * compares the permutations with numpy's for many seeds and lengths.
 *
 * 128-bit numbers are eight 16-bit limbs, lowest first, in plain numbers: every product of two limbs
 * and every sum of eight of them is exact in a double, so nothing here needs BigInt.
 */

const MASK32 = 0xffffffff;

// SeedSequence's constants (numpy/random/bit_generator.pyx).
const POOL_SIZE = 4;
const INIT_A = 0x43b0d7e5;
const MULT_A = 0x931e8875;
const INIT_B = 0x8b51f9dd;
const MULT_B = 0x58f38ded;
const MIX_MULT_L = 0xca01f9dd;
const MIX_MULT_R = 0x4973f715;
const XSHIFT = 16;

/** PCG's default 128-bit multiplier 0x2360ED051FC65DA44385DF649FCCF645, as 16-bit limbs, lowest first. */
const PCG_MULT = [0xf645, 0x9fcc, 0xdf64, 0x4385, 0x5da4, 0x1fc6, 0xed05, 0x2360];

/**
 * uint32 multiplication modulo 2^32.
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
function mul32(a, b) {
  return Math.imul(a, b) >>> 0;
}

/**
 * A non-negative integer seed as numpy's SeedSequence reads it: 32-bit words, lowest first ([0] for 0).
 * @param {number} seed a whole number, 0 <= seed <= 2^53 - 1
 * @returns {number[]}
 */
export function seedWords(seed) {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`seed must be a whole number >= 0 (as the seed box offers); got ${seed}.`);
  }
  const words = [seed % 2 ** 32];
  for (let rest = Math.floor(seed / 2 ** 32); rest > 0; rest = Math.floor(rest / 2 ** 32)) {
    words.push(rest % 2 ** 32);
  }
  return words;
}

/**
 * SeedSequence's hash of one word; `state.h` is its running constant (changed in place).
 * @param {number} value uint32
 * @param {{h: number}} state
 * @returns {number}
 */
function hashmix(value, state) {
  let v = (value ^ state.h) >>> 0;
  state.h = mul32(state.h, MULT_A);
  v = mul32(v, state.h);
  return (v ^ (v >>> XSHIFT)) >>> 0;
}

/**
 * SeedSequence's mix of two words.
 * @param {number} x uint32
 * @param {number} y uint32
 * @returns {number}
 */
function mix(x, y) {
  const r = (mul32(MIX_MULT_L, x) - mul32(MIX_MULT_R, y)) >>> 0;
  return (r ^ (r >>> XSHIFT)) >>> 0;
}

/**
 * SeedSequence's pool: the entropy words mixed into four.
 * @param {number[]} entropy uint32 words
 * @returns {number[]}
 */
function seedPool(entropy) {
  const state = { h: INIT_A };
  const pool = [];
  for (let i = 0; i < POOL_SIZE; i++) {
    pool.push(hashmix(i < entropy.length ? entropy[i] : 0, state));
  }
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) {
      if (src !== dst) pool[dst] = mix(pool[dst], hashmix(pool[src], state));
    }
  }
  for (let src = POOL_SIZE; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst], hashmix(entropy[src], state));
  }
  return pool;
}

/**
 * SeedSequence.generate_state(n32 / 2, uint64) as its n32 uint32 words (each uint64 is two words, low first).
 * @param {number[]} pool
 * @param {number} n32
 * @returns {number[]}
 */
function generateWords(pool, n32) {
  let h = INIT_B;
  const out = [];
  for (let i = 0; i < n32; i++) {
    let v = (pool[i % pool.length] ^ h) >>> 0;
    h = mul32(h, MULT_B);
    v = mul32(v, h);
    out.push((v ^ (v >>> XSHIFT)) >>> 0);
  }
  return out;
}

/**
 * A 128-bit number as limbs from four uint32 words given highest first.
 * @param {number[]} words [w3, w2, w1, w0]
 * @returns {number[]}
 */
function limbsFromWords(words) {
  const limbs = [];
  for (let k = 3; k >= 0; k--) limbs.push(words[k] & 0xffff, words[k] >>> 16);
  return limbs;
}

/**
 * a * b + c modulo 2^128, on 16-bit limbs, written into `out` (which may be `a` or `c`).
 * @param {number[]} a
 * @param {number[]} b
 * @param {number[]} c
 * @param {number[]} out
 * @returns {number[]} out
 */
function mulAdd128(a, b, c, out = new Array(8)) {
  let carry = 0;
  for (let k = 7; k >= 0; k--) {
    // limb k needs a[0..k] only: filling from the top leaves the lower limbs of `a` unread until their turn
    let sum = c[k];
    for (let i = 0; i <= k; i++) sum += a[i] * b[k - i];
    out[k] = sum;
  }
  for (let k = 0; k < 8; k++) {
    const sum = out[k] + carry;
    carry = Math.floor(sum / 65536);
    out[k] = sum - carry * 65536;
  }
  return out;
}

/**
 * numpy's PCG64 seeded from an integer, as `np.random.default_rng(seed)` makes it.
 * @param {number} seed
 * @returns {{state: number[], inc: number[], spare: number | null}} the generator (its 32-bit spare half included)
 */
export function pcg64(seed) {
  const w = generateWords(seedPool(seedWords(seed)), 8);
  // pcg64_set_seed: the first uint64 is the high half of the start, the third the high half of the stream
  const start = limbsFromWords([w[1], w[0], w[3], w[2]]);
  const seq = limbsFromWords([w[5], w[4], w[7], w[6]]);
  const inc = [];
  for (let k = 0; k < 8; k++) inc.push(((seq[k] << 1) | (k > 0 ? seq[k - 1] >>> 15 : 1)) & 0xffff);
  const zero = [0, 0, 0, 0, 0, 0, 0, 0];
  let state = mulAdd128(zero, PCG_MULT, inc);
  state = mulAdd128(state, [1, 0, 0, 0, 0, 0, 0, 0], start);
  state = mulAdd128(state, PCG_MULT, inc);
  return { state, inc, spare: null };
}

/**
 * numpy's next_uint32 for PCG64: the low half of a new 64-bit output, and its high half next time.
 *
 * A new output steps the LCG and applies XSL-RR: the two 64-bit halves of the state xor-ed, rotated
 * right by the state's top 6 bits.
 * @param {{state: number[], inc: number[], spare: number | null}} gen changed in place
 * @returns {number}
 */
export function nextUint32(gen) {
  if (gen.spare !== null) {
    const out = gen.spare;
    gen.spare = null;
    return out;
  }
  const s = mulAdd128(gen.state, PCG_MULT, gen.inc, gen.state);
  const lo = ((s[0] ^ s[4]) | ((s[1] ^ s[5]) << 16)) >>> 0;
  const hi = ((s[2] ^ s[6]) | ((s[3] ^ s[7]) << 16)) >>> 0;
  const rot = s[7] >>> 10;
  const a = rot >= 32 ? hi : lo;
  const b = rot >= 32 ? lo : hi;
  const r = rot % 32;
  gen.spare = r === 0 ? b : ((b >>> r) | (a << (32 - r))) >>> 0;
  return r === 0 ? a : ((a >>> r) | (b << (32 - r))) >>> 0;
}

/**
 * numpy's random_interval: a uniform integer in 0..max (max < 2^32), by masking and rejecting.
 * @param {{state: number[], inc: number[], spare: number | null}} gen
 * @param {number} max
 * @returns {number}
 */
function randomInterval(gen, max) {
  if (max === 0) return 0;
  let mask = max;
  for (const shift of [1, 2, 4, 8, 16]) mask = (mask | (mask >>> shift)) >>> 0;
  let value = (nextUint32(gen) & mask) >>> 0;
  while (value > max) value = (nextUint32(gen) & mask) >>> 0;
  return value;
}

/**
 * `gen.permutation(n)` of numpy's Generator: 0..n-1 shuffled from the last index down.
 * @param {{state: number[], inc: number[], spare: number | null}} gen changed in place
 * @param {number} n
 * @returns {number[]}
 */
export function permutation(gen, n) {
  if (!Number.isInteger(n) || n < 0 || n > MASK32) {
    throw new RangeError(`n must be a whole number from 0 to 2^32 - 1; got ${n}.`);
  }
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  for (let i = n - 1; i >= 1; i--) {
    const j = randomInterval(gen, i);
    const swap = out[i];
    out[i] = out[j];
    out[j] = swap;
  }
  return out;
}
