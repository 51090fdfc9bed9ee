// Package signature reads back the signatures the Python frontend writes into
// lang.Decl.Signature ("@staticmethod async def(a, b=..., /, c, *, d, **kw)"), as
// lang/commonlisp/lambdalist reads lambda lists: Parse gives the parameters and how a
// caller can pass each; Incompatibilities lists why a call valid against one signature
// may fail against another (the API comparison's "signature changed"); Bind binds a
// call's arguments as Python does and returns the TypeError it would raise (the broken
// callers a change leaves, and the sibling a call fits).
package signature
