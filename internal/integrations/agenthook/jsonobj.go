package agenthook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that keeps its keys in order, so that merging a hook into an
// agent's settings file changes nothing else in it.
type object struct{ kvs []kv }

type kv struct {
	k string
	v any
}

func (o *object) get(k string) (any, bool) {
	for _, e := range o.kvs {
		if e.k == k {
			return e.v, true
		}
	}
	return nil, false
}

func (o *object) set(k string, v any) {
	for i, e := range o.kvs {
		if e.k == k {
			o.kvs[i].v = v
			return
		}
	}
	o.kvs = append(o.kvs, kv{k, v})
}

// array returns the array at path, nil when absent; anything else there is an error.
func (o *object) array(path ...string) ([]any, error) {
	cur := o
	for i, k := range path {
		v, ok := cur.get(k)
		if !ok {
			return nil, nil
		}
		if i == len(path)-1 {
			if a, ok := v.([]any); ok {
				return a, nil
			}
			return nil, fmt.Errorf("%q is not a list", k)
		}
		if cur, ok = v.(*object); !ok {
			return nil, fmt.Errorf("%q is not an object", k)
		}
	}
	return nil, nil
}

// setPath sets the value at path, creating objects on the way.
func (o *object) setPath(v any, path ...string) {
	cur := o
	for _, k := range path[:len(path)-1] {
		next, ok := cur.get(k)
		obj, isObj := next.(*object)
		if !ok || !isObj {
			obj = &object{}
			cur.set(k, obj)
		}
		cur = obj
	}
	cur.set(path[len(path)-1], v)
}

// parseObject reads a JSON object keeping key order.
func parseObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the JSON object")
	}
	o, ok := v.(*object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := &object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.kvs = append(o.kvs, kv{k.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token()
		return a, err
	}
	return t, nil
}

// encode writes the object indented by two spaces, with a final newline.
func (o *object) encode() ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, o, ""); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func writeValue(b *bytes.Buffer, v any, indent string) error {
	switch v := v.(type) {
	case *object:
		return writeList(b, "{", "}", len(v.kvs), indent, func(i int) error {
			k, _ := json.Marshal(v.kvs[i].k)
			b.Write(k)
			b.WriteString(": ")
			return writeValue(b, v.kvs[i].v, indent+"  ")
		})
	case []any:
		return writeList(b, "[", "]", len(v), indent, func(i int) error { return writeValue(b, v[i], indent+"  ") })
	}
	enc, err := json.Marshal(v)
	b.Write(enc)
	return err
}

func writeList(b *bytes.Buffer, open, close string, n int, indent string, item func(int) error) error {
	if n == 0 {
		b.WriteString(open + close)
		return nil
	}
	b.WriteString(open + "\n")
	for i := 0; i < n; i++ {
		b.WriteString(indent + "  ")
		if err := item(i); err != nil {
			return err
		}
		if i < n-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + close)
	return nil
}
