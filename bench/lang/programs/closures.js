// Closures: creating closures that capture locals, then calling them to
// read and write the captured (closed-over) variables.
function makeCounter(start) {
  let n = start;
  function add(k) {
    n = n + k;
    return n;
  }
  return add;
}

function run(iterations) {
  let total = 0;
  for (let i = 0; i < iterations; i = i + 1) {
    const counter = makeCounter(i % 10);
    counter(1);
    counter(2);
    total = total + counter(3);
  }
  print(total);
}

run(400000);
