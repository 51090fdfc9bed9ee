// Package style holds one badly named function.
package style

// Bad_name is named the snake way.
func Bad_name() {} // want `warning: don't use underscores in Go names; func Bad_name should be BadName \(rename to BadName\) \[style/naming\]`
