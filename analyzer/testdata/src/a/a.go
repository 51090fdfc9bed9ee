// Package a holds one function over the nesting limit and one badly named function.
package a

// Deep nests six ifs deep.
func Deep(a int) int { // want `error: function Deep has nesting depth 6 \(limit 5\) \[complexity/nesting-depth\]`
	if a > 1 {
		if a > 2 {
			if a > 3 {
				if a > 4 {
					if a > 5 {
						if a > 6 {
							return 1
						}
					}
				}
			}
		}
	}
	return 0
}

// Bad_name is named the snake way.
func Bad_name() {} // want `warning: don't use underscores in Go names; func Bad_name should be BadName \(rename to BadName\) \[style/naming\]`
