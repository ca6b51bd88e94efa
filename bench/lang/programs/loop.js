// A tight arithmetic loop over locals: the dispatch loop's raw speed.
function run(n) {
  let a = 0;
  let b = 1;
  for (let i = 0; i < n; i = i + 1) {
    a = (a + b * 3 + i) % 1000003;
    b = (b + a + i % 7) % 65521;
  }
  print(a);
  print(b);
}

run(3000000);
