;; The exact scan's two inner loops (src/adapters/vectors/scan-memory.ts lays out the memory they read).
;; WebAssembly gives the Worker what JavaScript cannot: a native popcount and 128-bit float lanes.
;; Built with `npm run build:wasm` into kernels.wasm; test/node/kernels.test.ts checks the two agree.
(module
  (memory (import "env" "memory") 1)

  ;; For each of `n` sign codes of `words` uint32 words laid end to end from `codes`: its Hamming
  ;; distance to the code at `query`, stored as a uint16 at `distances` + 2 × slot, and counted in
  ;; the uint32 histogram at `histogram` (one bucket per distance).
  (func (export "hamming")
    (param $codes i32) (param $words i32) (param $n i32) (param $query i32) (param $distances i32) (param $histogram i32)
    (local $rowBytes i32) (local $pairBytes i32) (local $end i32) (local $k i32) (local $d i32) (local $bucket i32)
    (local.set $rowBytes (i32.shl (local.get $words) (i32.const 2)))
    ;; 64 bits at a time; an odd word count leaves one 32-bit word
    (local.set $pairBytes (i32.and (local.get $rowBytes) (i32.const -8)))
    (local.set $end (i32.add (local.get $distances) (i32.shl (local.get $n) (i32.const 1))))
    (block $done
      (loop $code
        (br_if $done (i32.ge_u (local.get $distances) (local.get $end)))
        (local.set $d (i32.const 0))
        (local.set $k (i32.const 0))
        (block $pairsDone
          (loop $pair
            (br_if $pairsDone (i32.ge_u (local.get $k) (local.get $pairBytes)))
            (local.set $d
              (i32.add (local.get $d)
                (i32.wrap_i64
                  (i64.popcnt
                    (i64.xor
                      (i64.load (i32.add (local.get $codes) (local.get $k)))
                      (i64.load (i32.add (local.get $query) (local.get $k))))))))
            (local.set $k (i32.add (local.get $k) (i32.const 8)))
            (br $pair)))
        (if (i32.lt_u (local.get $k) (local.get $rowBytes))
          (then
            (local.set $d
              (i32.add (local.get $d)
                (i32.popcnt
                  (i32.xor
                    (i32.load (i32.add (local.get $codes) (local.get $k)))
                    (i32.load (i32.add (local.get $query) (local.get $k)))))))))
        (i32.store16 (local.get $distances) (local.get $d))
        (local.set $bucket (i32.add (local.get $histogram) (i32.shl (local.get $d) (i32.const 2))))
        (i32.store (local.get $bucket) (i32.add (i32.load (local.get $bucket)) (i32.const 1)))
        (local.set $codes (i32.add (local.get $codes) (local.get $rowBytes)))
        (local.set $distances (i32.add (local.get $distances) (i32.const 2)))
        (br $code))))

  ;; For each of the `count` int32 slots at `slots`: the dot product of the float32 vector at
  ;; `query` with the slot's vector (`dimensions` float32 from `data` + slot × 4 × dimensions),
  ;; stored as a float32 at `scores` + 4 × i.
  (func (export "dots")
    (param $data i32) (param $dimensions i32) (param $query i32) (param $slots i32) (param $count i32) (param $scores i32)
    (local $rowBytes i32) (local $laneBytes i32) (local $end i32) (local $row i32) (local $k i32)
    (local $a v128) (local $b v128) (local $sum f32)
    (local.set $rowBytes (i32.shl (local.get $dimensions) (i32.const 2)))
    ;; Two four-lane sums per step (eight floats): shorter dependency chains than one.
    (local.set $laneBytes (i32.and (local.get $rowBytes) (i32.const -32)))
    (local.set $end (i32.add (local.get $slots) (i32.shl (local.get $count) (i32.const 2))))
    (block $done
      (loop $slot
        (br_if $done (i32.ge_u (local.get $slots) (local.get $end)))
        (local.set $row (i32.add (local.get $data) (i32.mul (i32.load (local.get $slots)) (local.get $rowBytes))))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $k (i32.const 0))
        (block $lanesDone
          (loop $lanes
            (br_if $lanesDone (i32.ge_u (local.get $k) (local.get $laneBytes)))
            (local.set $a
              (f32x4.add (local.get $a)
                (f32x4.mul
                  (v128.load (i32.add (local.get $query) (local.get $k)))
                  (v128.load (i32.add (local.get $row) (local.get $k))))))
            (local.set $b
              (f32x4.add (local.get $b)
                (f32x4.mul
                  (v128.load offset=16 (i32.add (local.get $query) (local.get $k)))
                  (v128.load offset=16 (i32.add (local.get $row) (local.get $k))))))
            (local.set $k (i32.add (local.get $k) (i32.const 32)))
            (br $lanes)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (local.set $sum
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        ;; dimensions not a multiple of 8: the rest one at a time
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $k) (local.get $rowBytes)))
            (local.set $sum
              (f32.add (local.get $sum)
                (f32.mul
                  (f32.load (i32.add (local.get $query) (local.get $k)))
                  (f32.load (i32.add (local.get $row) (local.get $k))))))
            (local.set $k (i32.add (local.get $k) (i32.const 4)))
            (br $tail)))
        (f32.store (local.get $scores) (local.get $sum))
        (local.set $slots (i32.add (local.get $slots) (i32.const 4)))
        (local.set $scores (i32.add (local.get $scores) (i32.const 4)))
        (br $slot))))
)
