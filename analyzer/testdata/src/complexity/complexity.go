// Package complexity holds one function over the nesting limit.
package complexity

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
