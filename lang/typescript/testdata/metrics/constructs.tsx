export default function f(a = 1, {b = 2}: X, [c = 3] = [], ...rest: number[]): void {
  if (a) {} else if (b) {} else {}
  const x = a?.b?.(c) ?? d;
  x ||= 2;
  for (const y of z) {}
  switch (a) { case 1: break; default: }
  try {} catch (e) {}
  label: for (;;) { continue label; }
}
class C<T> extends D implements E {
  static #p = 1;
  private q?: string = "a";
  constructor(private readonly r = 2) { super(); }
  get g(): number { return 1; }
  static { init(); }
  @dec m<T>(this: C, x?: number): T { return () => x; }
}
interface I { a: string; m(x: number): void }
type T = { a: 1 };
enum E { A = 1, B }
declare module "x" { export function y(): void; }
namespace NS { export const z = 1; }
export { f as g, C };
export * from "./m";
export const h = async <T,>(x: T) => x, k = function named() {};
const jsx = <div>{a && <b/>}</div>;
