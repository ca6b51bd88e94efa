// The book's instantiation benchmark: allocating instances and running init().
class Foo {
  constructor(v) {
    this.v = v;
  }
}

function run(n) {
  let sum = 0;
  for (let i = 0; i < n; i = i + 1) {
    new Foo(1);
    new Foo(2);
    new Foo(3);
    new Foo(4);
    sum = sum + new Foo(i % 10).v;
  }
  print(sum);
}

run(400000);
