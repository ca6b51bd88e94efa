// Recursive Fibonacci: call overhead, argument passing, small-int arithmetic.
function fib(n) {
  if (n < 2) return n;
  return fib(n - 2) + fib(n - 1);
}

print(fib(30));
