// Package metrics holds functions whose metrics the tests know; the parity test also
// compares them with gocyclo and gocognit.
package metrics

import (
	"errors"
	"fmt"
)

func empty() {}

func oneLine() { fmt.Println("x") }

func straight(a, b int) int {
	// a comment line

	c := a + b /* trailing */
	/* block
	comment */
	return c
}

func raw() string {
	s := `line one
line two

line four`
	return s
}

func elseIfChain(x int) string {
	if x < 0 {
		return "neg"
	} else if x == 0 {
		return "zero"
	} else if x < 10 {
		return "small"
	} else {
		return "big"
	}
}

func nested(xs [][]int) (n int) {
	for _, row := range xs {
		for i := 0; i < len(row); i++ {
			if row[i] > 0 && row[i] < 10 || row[i] == 42 {
				switch {
				case row[i]%2 == 0:
					n++
				default:
					n--
				}
			}
		}
	}
	return n
}

func literals() func() int {
	f := func() int {
		if true {
			return 1
		}
		return 0
	}
	return func() int { return f() }
}

func labelled(m [][]int) int {
outer:
	for _, r := range m {
		for _, v := range r {
			if v < 0 {
				continue outer
			}
			if v > 100 {
				break outer
			}
			if v == 7 {
				goto done
			}
		}
	}
done:
	return 0
}

func selecting(a, b chan int, quit chan struct{}) int {
	for {
		select {
		case v := <-a:
			return v
		case v, ok := <-b:
			if !ok {
				return -1
			}
			return v
		case <-quit:
			return 0
		default:
		}
	}
}

func typeSwitch(v any) string {
	switch t := v.(type) {
	case int, int64:
		return "int"
	case string:
		return t
	case error:
		if errors.Is(t, errors.ErrUnsupported) {
			return "unsupported"
		}
	}
	return "?"
}

func factorial(n int) int {
	if n <= 1 {
		return 1
	}
	return n * factorial(n-1)
}

type tree struct{ left, right *tree }

func (t *tree) size() int {
	if t == nil {
		return 0
	}
	return 1 + t.left.size() + t.right.size()
}

func (t *tree) walk(f func(*tree)) {
	if t != nil {
		f(t)
		t.walk(f)
	}
}

func generic[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func mixedOps(a, b, c, d bool) bool {
	return a && b && c || d && (a || !b) && !(c && d)
}

func condLiteral(x int) bool {
	if func() bool {
		for i := 0; i < x; i++ {
			if i > 3 {
				return true
			}
		}
		return false
	}() {
		return true
	}
	return false
}

func deepElse(x, y int) int {
	if x > 0 {
		return 1
	} else {
		if y > 0 {
			for {
				break
			}
		}
	}
	return 0
}

// litVar is a package-level function literal: measured under the variable's name.
var litVar = func(x int) int {
	if x > 0 {
		for i := 0; i < x; i++ {
			x--
		}
	}
	return x
}

// handlers holds several literals: each metric is the worst of them.
var handlers = map[string]func(int) bool{
	"a": func(x int) bool { return x > 0 && x < 10 },
	"b": func(x int) bool {
		if x > 0 {
			return true
		}
		return false
	},
}

// plainVar holds no function literal: no metrics.
var plainVar = 3
