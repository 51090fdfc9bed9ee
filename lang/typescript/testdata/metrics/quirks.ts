// sonarjs quirks: a ?: branch that is a function raises the rest of the function's nesting.
function aa(v: any, len: number) {
    const g = v ? 1 : (x: any) => { if (x) { return 1; } return 2; };
    for (let i = 0; i < len; i++) { }
}
function bb(v: any, len: number) {
    const g = v ? 1 : (x: any) => { return 2; };
    for (let i = 0; i < len; i++) { }
}
function cc(v: any, len: number) {
    const g = v ? 1 : 2;
    if (v) { if (len) {} }
}
function dd(v: any, len: number) {
    const g = v ? 1 : (x: any) => { if (x) { return 1; } return 2; };
    if (v) { if (len) {} }
}
function q2(len: number, values: any, m: boolean) {
    const getValue =
      typeof values !== 'object'
        ? (x: any) => x
        : (x: any) => {
            if (m && values[x]) {
              return values[x].messages;
            }
            return values[x];
          };
    for (let i = 0; i < len; i++) {
      const advanceFrameBy = (count: number) => {
        len += count;
      };
      advanceFrameBy(getValue(i));
    }
}
