;; A JSON validator in WebAssembly, for bench/parse-floor.mjs only: how fast the check that a
;; line is JSON, exactly as JSON.parse decides it for the line read as latin1, can be outside
;; JavaScript, what parsing costs once every long string is cut out, and what reading a few
;; fields from the validator's positions costs instead of parsing (see #30).
;;
;; validate(start, end): 1 when bytes [start, end) are one JSON value with whitespace around it.
;; The byte at `end` must be 0 and the 16 bytes after it readable: a string's content is searched
;; 16 bytes at a time (SIMD) for `"`, `\` or a control byte, and the 0 stops every other read.
;; Nesting deeper than 4,000 is refused (JSON.parse takes it; no bench line comes near).
;; Each value string longer than setMin's bytes (content, between its quotes) is noted, up to 500
;; a line; compact(start, end, out) then copies the line to `out` with those contents left out.
;; With setTape(address) not 0, each value and key is written there in order (count() of them),
;; three i32 each: kind (1 object, 2 array, 3 string, 4 number, 5 true, 6 false, 7 null, 8 key),
;; start and end (a string's content; a container's first byte and the index after its last
;; value, so a reader can step over it).
;;
;; Memory: 16..4016 the open arrays (0) and objects (1), 4096..8192 the cuts, 8192..24192 the
;; open containers' places in the tape, lines from 32768.
(module
  (memory (export "memory") 64)
  ;; depth stack: one byte per level at STACK (0 = array, 1 = object)
  (global $STACK i32 (i32.const 16))
  (global $MAXDEPTH i32 (i32.const 4000))
  (global $CUTS i32 (i32.const 4096))
  (global $ncuts (mut i32) (i32.const 0))
  (global $min (mut i32) (i32.const 0x7fffffff))
  (global $tape (mut i32) (i32.const 0))
  (global $nt (mut i32) (i32.const 0))
  (global $IDX i32 (i32.const 8192))

  ;; skip JSON whitespace from pos; returns new pos
  (func $ws (param $p i32) (result i32)
    (local $c i32)
    (block $done
      (loop $l
        (local.set $c (i32.load8_u (local.get $p)))
        (br_if $done (i32.gt_u (local.get $c) (i32.const 32)))
        (if (i32.eqz
              (i32.or (i32.or (i32.eq (local.get $c) (i32.const 32)) (i32.eq (local.get $c) (i32.const 10)))
                      (i32.or (i32.eq (local.get $c) (i32.const 13)) (i32.eq (local.get $c) (i32.const 9)))))
          (then (br $done)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $l)))
    (local.get $p))

  (func $emit (param $k i32) (param $a i32) (param $b i32)
    (local $at i32)
    (if (i32.eqz (global.get $tape)) (then (return)))
    (local.set $at (i32.add (global.get $tape) (i32.mul (global.get $nt) (i32.const 12))))
    (i32.store (local.get $at) (local.get $k))
    (i32.store offset=4 (local.get $at) (local.get $a))
    (i32.store offset=8 (local.get $at) (local.get $b))
    (global.set $nt (i32.add (global.get $nt) (i32.const 1))))
  (func (export "setTape") (param $t i32) (global.set $tape (local.get $t)))
  (func $hex (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 32)) (i32.const 97)) (i32.const 6))))

  ;; string body from p (after the opening quote); returns pos after closing quote, or -1
  (func $str (param $p i32) (result i32)
    (local $v v128) (local $m i32) (local $c i32)
    (loop $l
      (local.set $v (v128.load (local.get $p)))
      (local.set $m (i8x16.bitmask
        (v128.or
          (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
          (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32))))))
      (if (i32.eqz (local.get $m)) (then (local.set $p (i32.add (local.get $p) (i32.const 16))) (br $l)))
      (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $m))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 34)) (then (return (i32.add (local.get $p) (i32.const 1)))))
      (if (i32.ne (local.get $c) (i32.const 92)) (then (return (i32.const -1))))
      ;; escape
      (local.set $c (i32.load8_u (i32.add (local.get $p) (i32.const 1))))
      (if (i32.eq (local.get $c) (i32.const 117))
        (then
          (if (i32.eqz (i32.and (i32.and (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 2))))
                                         (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 3)))))
                                (i32.and (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 4))))
                                         (call $hex (i32.load8_u (i32.add (local.get $p) (i32.const 5)))))))
            (then (return (i32.const -1))))
          (local.set $p (i32.add (local.get $p) (i32.const 6)))
          (br $l)))
      ;; " \ / b f n r t
      (if (i32.or
            (i32.or (i32.or (i32.eq (local.get $c) (i32.const 34)) (i32.eq (local.get $c) (i32.const 92)))
                    (i32.or (i32.eq (local.get $c) (i32.const 47)) (i32.eq (local.get $c) (i32.const 98))))
            (i32.or (i32.or (i32.eq (local.get $c) (i32.const 102)) (i32.eq (local.get $c) (i32.const 110)))
                    (i32.or (i32.eq (local.get $c) (i32.const 114)) (i32.eq (local.get $c) (i32.const 116)))))
        (then (local.set $p (i32.add (local.get $p) (i32.const 2))) (br $l)))
      (return (i32.const -1)))
    (i32.const -1))

  (func $digits (param $p i32) (result i32)
    (loop $l
      (if (i32.lt_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)) (i32.const 10))
        (then (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $l))))
    (local.get $p))

  ;; number at p; returns pos after, or -1
  (func $num (param $p i32) (result i32)
    (local $c i32) (local $q i32)
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 45)) (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
    (local.set $c (i32.load8_u (local.get $p)))
    (if (i32.eq (local.get $c) (i32.const 48))
      (then (local.set $p (i32.add (local.get $p) (i32.const 1))))
      (else
        (if (i32.ge_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $p (call $digits (i32.add (local.get $p) (i32.const 1))))))
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 46))
      (then
        (local.set $q (call $digits (i32.add (local.get $p) (i32.const 1))))
        (if (i32.eq (local.get $q) (i32.add (local.get $p) (i32.const 1))) (then (return (i32.const -1))))
        (local.set $p (local.get $q))))
    (if (i32.eq (i32.or (i32.load8_u (local.get $p)) (i32.const 32)) (i32.const 101))
      (then
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $c (i32.load8_u (local.get $p)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
          (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
        (local.set $q (call $digits (local.get $p)))
        (if (i32.eq (local.get $q) (local.get $p)) (then (return (i32.const -1))))
        (local.set $p (local.get $q))))
    (local.get $p))

  ;; validates bytes [start, end) (byte at end must be 0, with 16 readable bytes after); 1 valid, 0 not
  (func (export "setMin") (param $m i32) (global.set $min (local.get $m)))
  ;; copies [start,end) to out without the recorded cuts' contents; returns the output length
  (func (export "compact") (param $start i32) (param $end i32) (param $out i32) (result i32)
    (local $k i32) (local $at i32) (local $o i32) (local $cs i32)
    (local.set $at (local.get $start)) (local.set $o (local.get $out))
    (block $done (loop $l
      (br_if $done (i32.ge_u (local.get $k) (global.get $ncuts)))
      (local.set $cs (i32.load (i32.add (global.get $CUTS) (i32.shl (local.get $k) (i32.const 3)))))
      (memory.copy (local.get $o) (local.get $at) (i32.sub (local.get $cs) (local.get $at)))
      (local.set $o (i32.add (local.get $o) (i32.sub (local.get $cs) (local.get $at))))
      (local.set $at (i32.load (i32.add (global.get $CUTS) (i32.add (i32.shl (local.get $k) (i32.const 3)) (i32.const 4)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $l)))
    (memory.copy (local.get $o) (local.get $at) (i32.sub (local.get $end) (local.get $at)))
    (i32.sub (i32.add (local.get $o) (i32.sub (local.get $end) (local.get $at))) (local.get $out)))
  (func (export "count") (result i32) (global.get $nt))
  (func (export "validate") (param $start i32) (param $end i32) (result i32)
    (local $p i32) (local $c i32) (local $d i32) (local $state i32) (local $q i32)
    (global.set $ncuts (i32.const 0))
    (global.set $nt (i32.const 0))
    (local.set $p (call $ws (local.get $start)))
    ;; state 0: value, 1: after value, 2: key
    (loop $main
      (block $after
        (block $key
          (block $value
            (br_table $value $after $key (local.get $state)))
          ;; ---- value
          (local.set $c (i32.load8_u (local.get $p)))
          (if (i32.eq (local.get $c) (i32.const 34))
            (then (local.set $q (local.get $p))
                  (local.set $p (call $str (i32.add (local.get $p) (i32.const 1))))
                  (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 0))))
                  (call $emit (i32.const 3) (i32.add (local.get $q) (i32.const 1)) (i32.sub (local.get $p) (i32.const 1)))
                  (if (i32.and (i32.gt_u (i32.sub (i32.sub (local.get $p) (local.get $q)) (i32.const 2)) (global.get $min)) (i32.lt_u (global.get $ncuts) (i32.const 500)))
                    (then (i32.store (i32.add (global.get $CUTS) (i32.shl (global.get $ncuts) (i32.const 3))) (i32.add (local.get $q) (i32.const 1)))
                          (i32.store (i32.add (global.get $CUTS) (i32.add (i32.shl (global.get $ncuts) (i32.const 3)) (i32.const 4))) (i32.sub (local.get $p) (i32.const 1)))
                          (global.set $ncuts (i32.add (global.get $ncuts) (i32.const 1)))))
                  (local.set $state (i32.const 1)) (br $main)))
          (if (i32.eq (local.get $c) (i32.const 123))
            (then
              (i32.store (i32.add (global.get $IDX) (i32.shl (local.get $d) (i32.const 2))) (global.get $nt))
              (call $emit (i32.const 1) (local.get $p) (i32.add (global.get $nt) (i32.const 1)))
              (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1))))
              (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 125))
                (then (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $state (i32.const 1)) (br $main)))
              (if (i32.ge_u (local.get $d) (global.get $MAXDEPTH)) (then (return (i32.const 0))))
              (i32.store8 (i32.add (global.get $STACK) (local.get $d)) (i32.const 1))
              (local.set $d (i32.add (local.get $d) (i32.const 1)))
              (local.set $state (i32.const 2)) (br $main)))
          (if (i32.eq (local.get $c) (i32.const 91))
            (then
              (i32.store (i32.add (global.get $IDX) (i32.shl (local.get $d) (i32.const 2))) (global.get $nt))
              (call $emit (i32.const 2) (local.get $p) (i32.add (global.get $nt) (i32.const 1)))
              (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1))))
              (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 93))
                (then (local.set $p (i32.add (local.get $p) (i32.const 1))) (local.set $state (i32.const 1)) (br $main)))
              (if (i32.ge_u (local.get $d) (global.get $MAXDEPTH)) (then (return (i32.const 0))))
              (i32.store8 (i32.add (global.get $STACK) (local.get $d)) (i32.const 0))
              (local.set $d (i32.add (local.get $d) (i32.const 1)))
              (local.set $state (i32.const 0)) (br $main)))
          (if (i32.eq (local.get $c) (i32.const 116))
            (then (if (i32.ne (i32.load (local.get $p)) (i32.const 0x65757274)) (then (return (i32.const 0))))
                  (call $emit (i32.const 5) (local.get $p) (i32.add (local.get $p) (i32.const 4)))
                  (local.set $p (i32.add (local.get $p) (i32.const 4))) (local.set $state (i32.const 1)) (br $main)))
          (if (i32.eq (local.get $c) (i32.const 110))
            (then (if (i32.ne (i32.load (local.get $p)) (i32.const 0x6c6c756e)) (then (return (i32.const 0))))
                  (call $emit (i32.const 7) (local.get $p) (i32.add (local.get $p) (i32.const 4)))
                  (local.set $p (i32.add (local.get $p) (i32.const 4))) (local.set $state (i32.const 1)) (br $main)))
          (if (i32.eq (local.get $c) (i32.const 102))
            (then (if (i32.or (i32.ne (i32.load (local.get $p)) (i32.const 0x736c6166))
                              (i32.ne (i32.load8_u (i32.add (local.get $p) (i32.const 4))) (i32.const 101))) (then (return (i32.const 0))))
                  (call $emit (i32.const 6) (local.get $p) (i32.add (local.get $p) (i32.const 5)))
                  (local.set $p (i32.add (local.get $p) (i32.const 5))) (local.set $state (i32.const 1)) (br $main)))
          (local.set $q (local.get $p))
          (local.set $p (call $num (local.get $p)))
          (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 0))))
          (call $emit (i32.const 4) (local.get $q) (local.get $p))
          (local.set $state (i32.const 1)) (br $main))
        ;; ---- key
        (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 34)) (then (return (i32.const 0))))
        (local.set $q (local.get $p))
        (local.set $p (call $str (i32.add (local.get $p) (i32.const 1))))
        (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 0))))
        (call $emit (i32.const 8) (i32.add (local.get $q) (i32.const 1)) (i32.sub (local.get $p) (i32.const 1)))
        (local.set $p (call $ws (local.get $p)))
        (if (i32.ne (i32.load8_u (local.get $p)) (i32.const 58)) (then (return (i32.const 0))))
        (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1))))
        (local.set $state (i32.const 0)) (br $main))
      ;; ---- after value
      (local.set $p (call $ws (local.get $p)))
      (if (i32.eqz (local.get $d)) (then (return (i32.eq (local.get $p) (local.get $end)))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 44))
        (then
          (local.set $p (call $ws (i32.add (local.get $p) (i32.const 1))))
          (local.set $state (select (i32.const 2) (i32.const 0) (i32.load8_u (i32.add (global.get $STACK) (i32.sub (local.get $d) (i32.const 1))))))
          (br $main)))
      (if (i32.eq (local.get $c) (select (i32.const 125) (i32.const 93) (i32.load8_u (i32.add (global.get $STACK) (i32.sub (local.get $d) (i32.const 1))))))
        (then (local.set $d (i32.sub (local.get $d) (i32.const 1)))
              (if (global.get $tape) (then (i32.store offset=8 (i32.add (global.get $tape) (i32.mul (i32.load (i32.add (global.get $IDX) (i32.shl (local.get $d) (i32.const 2)))) (i32.const 12))) (global.get $nt))))
              (local.set $p (i32.add (local.get $p) (i32.const 1))) (br $main)))
      (return (i32.const 0)))
    (i32.const 0))
)
