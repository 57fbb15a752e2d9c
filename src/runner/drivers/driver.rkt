#lang racket/base
;; sudoku-judge's LeetCode driver for Racket. Loads the submission's module,
;; says "ready" on the answer channel (the path in SUDOKU_JUDGE_ANSWERS),
;; then reads one 81-character puzzle a line until `end`, calls
;; solve-sudoku on each board (a mutable vector of rows, each a mutable
;; vector of chars) and writes "<row>/<row>/.../<row>" on the channel, apart
;; from the submission's own stdout. A solved board returned (as lists
;; or vectors) is taken as the answer too. The judge sends the next board
;; only after this answer, and times each board from outside.
(require racket/string)

(define source (string->path (vector-ref (current-command-line-arguments) 0)))

(define solve-sudoku
  (dynamic-require
   source 'solve-sudoku
   (λ ()
     ;; A module that does not provide it: read it from the module's own
     ;; namespace.
     (parameterize ([current-namespace (module->namespace source)])
       (namespace-variable-value 'solve-sudoku)))))

;; Windows: a named pipe, opened as it is (no seek to its end).
(define answers
  (open-output-file (getenv "SUDOKU_JUDGE_ANSWERS")
                    #:exists (if (eq? (system-type) 'windows) 'update 'append)))

(define (rows-of board)
  (cond
    [(or (vector? board) (list? board))
     (for/list ([row board])
       (if (or (vector? row) (list? row) (string? row))
           (list->string (for/list ([c row]) (if (char? c) c #\?)))
           "?"))]
    [else #f]))

(define (answer! text)
  (write-string text answers)
  (newline answers)
  (flush-output answers))

(answer! "ready")
(let loop ()
  (define line (read-line (current-input-port) 'any))
  (unless (eof-object? line)
    (define cells (string-trim line #:left? #f))
    (unless (string=? cells "end")
      (when (= (string-length cells) 81)
        (define board
          (for/vector ([r 9])
            (for/vector ([c 9]) (string-ref cells (+ (* r 9) c)))))
        (define returned (rows-of (solve-sudoku board)))
        ;; What it printed goes out with the board it printed it for.
        (flush-output (current-output-port))
        (define rows
          (if (and returned (= (length returned) 9)) returned (rows-of board)))
        (answer! (string-join rows "/")))
      (loop))))
