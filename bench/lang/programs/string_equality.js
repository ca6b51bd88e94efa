// The book's string_equality benchmark: comparing equal and unequal strings
// built at run time (so equal contents need not be the same object).
function run(n) {
  const a1 = "abcdefghijklmnopqrstuvwxyz" + "1";
  const a2 = "abcdefghijklmnopqrstuvwxyz" + "2";
  const a3 = "abcdefghijklmnopqrstuvwxyz" + "3";
  const b1 = "abcdefghijklmnopqrstu" + "vwxyz1";
  const b2 = "abcdefghijklmnopqrstu" + "vwxyz2";
  let count = 0;
  for (let i = 0; i < n; i = i + 1) {
    if (a1 === b1) count = count + 1;
    if (a1 === a2) count = count + 1;
    if (a2 === b2) count = count + 1;
    if (a3 === "abcdefghijklmnopqrstuvwxyz3") count = count + 1;
    if (a3 !== a1) count = count + 1;
    if (b1 === "short") count = count + 1;
    if (a2 === a2) count = count + 1;
    if (b2 !== b1) count = count + 1;
  }
  print(count);
}

run(1000000);
