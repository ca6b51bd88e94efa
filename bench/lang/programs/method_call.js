// Wren's method_call: virtual dispatch, `this`, super calls, returning `this`.
class Toggle {
  constructor(startState) {
    this.state = startState;
  }

  value() { return this.state; }

  activate() {
    this.state = !this.state;
    return this;
  }
}

class NthToggle extends Toggle {
  constructor(startState, maxCounter) {
    super(startState);
    this.countMax = maxCounter;
    this.count = 0;
  }

  activate() {
    this.count = this.count + 1;
    if (this.count >= this.countMax) {
      super.activate();
      this.count = 0;
    }
    return this;
  }
}

function run(n) {
  let trues = 0;
  let val = true;
  const toggle = new Toggle(val);
  for (let i = 0; i < n; i = i + 1) {
    val = toggle.activate().value();
    val = toggle.activate().value();
    val = toggle.activate().value();
    val = toggle.activate().value();
    val = toggle.activate().value();
    if (val) trues = trues + 1;
  }
  print(toggle.value());

  val = true;
  const ntoggle = new NthToggle(val, 3);
  for (let i = 0; i < n; i = i + 1) {
    val = ntoggle.activate().value();
    val = ntoggle.activate().value();
    val = ntoggle.activate().value();
    val = ntoggle.activate().value();
    val = ntoggle.activate().value();
    if (val) trues = trues + 1;
  }
  print(ntoggle.value());
  print(trues);
}

run(200000);
