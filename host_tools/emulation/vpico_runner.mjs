// The virtual Pico's chip: an RP2040 in the npm rp2040js emulator running the
// flash image of FLASH_FILE (firmware + littlefs), driven by host_tools/emulation/vpico.py.
//
// usage: node vpico_runner.mjs --bootrom BOOTROM.bin --flash-file FLASH.img
//            [--i2c-bus 0 --sda 4 --scl 5 --oled-address 60|none] [--qspi-ss-pullup 1]
//            [--adc-channel 3 --adc-value 1929]   (what that ADC channel converts to, 12 bits)
//
// stdin/stdout carry frames: 1 type byte, 4-byte little-endian length, payload.
//   in  S bytes            serial bytes the USB host sends to the device (CDC OUT)
//   in  G pin,level,...    drive GPIOs (level 0/1, 2 = release to the pad's pull)
//   in  L u64 nanos        pause when the emulated clock reaches nanos, then send T
//   in  K u32 n            power cut after n more flash erase/program operations
//   in  C u64 nanos        power cut when the emulated clock reaches nanos
//   in  P                  power off now (flash kept), like C at the current time
//   in  A u16 value        the --adc-channel now converts to value (a supply that drops)
//   in  V bytes            bytes on UART0's RX line (the link cable), fed to its RX FIFO one
//                          per character time at 115,200 baud and only while it has room
//   in  Q                  query: answered by Q u64 nanos, u32 flashOps, u64 waitNanos,
//                          u32 bytes erased, u32 bytes programmed (since power-on)
//                          (waitNanos: emulated time the core spent halted in WFI/WFE)
//   out S bytes            serial bytes from the device (CDC IN)
//   out I addr,bytes...    one I2C write transaction to the OLED (sent at STOP)
//   out T u64 nanos, u32 flashOps   reached the L limit
//   out U                  the USB host has configured the device (the CDC is up)
//   out R u64 nanos        a watchdog reset (machine.reset()) rebuilt the chip
//   out X u64 nanos, u32 flashOps   powered off: flash saved to FLASH_FILE, exiting
//   out E u64 nanos, u8 level      the on-board LED (GP25) turned on (1) or off (0)
//   out W bytes            bytes the device wrote to UART0's TX (sent at the end of each slice)
//
// What rp2040js lacks and this file adds (see third_party/rp2040/README.md):
// a USB host that completes bulk-OUT only when it has bytes (the stock one
// answers empty packets every 10 us and slows Python ~3x), flash erase/program
// (bootrom ROM-table functions patched to BKPT and done here, so littlefs
// persists), a watchdog reset that rebuilds the chip with the same flash, pad
// pull-ups (a released button reads 1), an I2C device that ACKs the OLED
// address with 9 SCL periods per byte, and a WFI that goes on when an interrupt
// is already pending (wfiWakesAtOnce).
import fs from "node:fs";
import { GPIOPinState, Simulator, USBCDC } from "rp2040js";

const FLASH_SIZE = 2 * 1024 * 1024; // a Pico's W25Q16
const CLOCK_HZ = 125e6;
const CYCLE_NANOS = 1e9 / CLOCK_HZ;
const I2C_FUNCTION = 3;
const BKPT_ERASE = 0xe0;
const BKPT_PROGRAM = 0xe1;

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, "")] = argv[i + 1];
  return out;
}
const args = parseArgs(process.argv.slice(2));
const bootrom = fs.readFileSync(args.bootrom);
const flashFile = args["flash-file"];
const i2cBus = Number(args["i2c-bus"] ?? 0);
const sdaPin = Number(args.sda ?? 4);
const sclPin = Number(args.scl ?? 5);
const oledAddress = args["oled-address"] === "none" ? -1 : Number(args["oled-address"] ?? 0x3c);
// A real Pico pulls QSPI_SS up (10 kohm): the BOOTSEL button reads released.  rp2040js
// reads every QSPI input as 0, which CircuitPython (it senses BOOTSEL at boot) takes as
// "held" and waits forever; MicroPython never reads it at boot, so only CircuitPython asks.
const qspiSsPullup = args["qspi-ss-pullup"] === "1";
const adcChannel = args["adc-channel"] === undefined ? -1 : Number(args["adc-channel"]);
let adcValue = Number(args["adc-value"] ?? 0);

const flash = new Uint8Array(FLASH_SIZE).fill(0xff);
flash.set(fs.readFileSync(flashFile).subarray(0, FLASH_SIZE));

// -- framing --------------------------------------------------------------------
const LED_PIN = 25; // the Pico's on-board LED

function send(type, payload) {
  const head = Buffer.alloc(5);
  head[0] = type.charCodeAt(0);
  head.writeUInt32LE(payload.length, 1);
  process.stdout.write(Buffer.concat([head, Buffer.from(payload)]));
}
function u64(n) {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(Math.floor(n)));
  return b;
}
function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

// -- state that survives a watchdog reset -----------------------------------------
let nanosBefore = 0; // emulated time of earlier chip incarnations
let flashOps = 0;
let flashErasedBytes = 0; // what a real flash chip spends its time on (the emulator: none)
let flashProgrammedBytes = 0;
let waitNanos = 0; // emulated time the core spent halted (WFI/WFE), over every incarnation
let cutAfterOps = -1;
let cutAtNanos = Infinity;
let pauseAtNanos = Infinity;
let paused = true; // until the first L: buttons held at power-on are set first
let poweredOff = false;
// Free-running (VirtualPico.run_free: an L this far ahead) with the core halted and no
// alarm pending, nothing in the chip can happen before the controller's next command:
// the runner waits for that command instead of spinning through emulated idle time
// (a pty-driven board at its REPL would otherwise keep a host core busy for nothing).
const FREE_RUN_NANOS = 2 ** 62;
let dormant = false;
const hostBytes = []; // CDC OUT bytes not yet taken by the device
// the link cable on UART0: what the device sent this slice, what the other side sent
// and the device has not read yet (rp2040js drops a byte fed into a full RX FIFO, so
// the bytes go in one per character time, 10 bits at 115,200 baud, while there is room)
const UART_CHAR_NANOS = 1e10 / 115200;
const UART_TX_INTERRUPT = 1 << 5;
let uartOut = [];
const uartIn = [];
let uartAlarm = null;
const drive = new Map(); // pin -> 0/1 driven from outside (buttons)

let chip;
let clock;
let cdc;
let pendingOut = null; // bulk-OUT buffer armed by the device while the host had nothing

const stderrLogger = {
  debug() {},
  info() {},
  warn() {},
  error: (component, message) => process.stderr.write(`vpico: ${component}: ${message}\n`),
};

function now() {
  return nanosBefore + clock.nanos;
}

function patchBootrom(rom) {
  // ROM table: halfword at 0x14 points to (code, function) halfword pairs.
  const words = new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length));
  const half = (addr) => (words[addr >> 2] >>> ((addr & 2) * 8)) & 0xffff;
  const setHalf = (addr, value) => {
    const shift = (addr & 2) * 8;
    words[addr >> 2] = (words[addr >> 2] & ~(0xffff << shift)) | (value << shift);
  };
  const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8);
  const wanted = { [code("RE")]: BKPT_ERASE, [code("RP")]: BKPT_PROGRAM };
  let found = 0;
  for (let p = half(0x14); half(p); p += 4) {
    const bkpt = wanted[half(p)];
    if (bkpt !== undefined) {
      const fn = half(p + 2) & ~1;
      setHalf(fn, 0xbe00 | bkpt); // bkpt #n; onBreak returns to LR
      found++;
    }
  }
  if (found !== 2) throw new Error("bootrom ROM table has no flash_range_erase/program");
  return words;
}
const patchedBootrom = patchBootrom(bootrom);

function onBreak(code) {
  const r = chip.core.registers;
  if (code === BKPT_ERASE) {
    const start = r[0] >>> 0;
    const count = r[1] >>> 0;
    flash.fill(0xff, Math.min(start, FLASH_SIZE), Math.min(start + count, FLASH_SIZE));
    chip.flash.fill(0xff, start, start + count);
    flashErasedBytes += count;
  } else if (code === BKPT_PROGRAM) {
    const start = r[0] >>> 0;
    const src = r[1] >>> 0;
    const count = r[2] >>> 0;
    flashProgrammedBytes += count;
    for (let i = 0; i < count; i++) {
      const addr = start + i;
      const value = flash[addr] & chip.readUint8(src + i); // NOR: program only clears bits
      if (addr < FLASH_SIZE) flash[addr] = value;
      chip.flash[addr] = value;
    }
  } else {
    throw new Error("unexpected breakpoint " + code + " at " + chip.core.PC.toString(16));
  }
  chip.core.PC = chip.core.LR & ~1;
  flashOps++;
  if (cutAfterOps >= 0 && --cutAfterOps === 0) powerOff();
}

// -- GPIO: pad pull-ups and buttons --------------------------------------------------
// An OLED breakout has its own pull-ups on SDA and SCL (CircuitPython's busio.I2C
// checks for them: it pulls the pins down and expects them to read high).
const externalPullups = new Set(oledAddress >= 0 ? [sdaPin, sclPin] : []);
function refreshPins() {
  for (const pin of chip.gpio) {
    let level = drive.get(pin.index);
    if (level === undefined && pin.index === sdaPin && probeAck) level = 0;
    if (level === undefined && externalPullups.has(pin.index)) level = 1;
    if (level === undefined) level = pin.pullupEnabled && !pin.pulldownEnabled ? 1 : 0;
    if (pin.rawInputValue !== !!level) pin.setInputValue(!!level);
  }
}

// -- I2C: the OLED --------------------------------------------------------------------
function attachOled(i2c) {
  let current = null; // bytes of the transaction to the OLED
  const bitNanos = () => {
    const counts = i2c.sclHighPeriod + i2c.sclLowPeriod;
    return counts > 0 ? (counts * 1e9) / CLOCK_HZ : 2500;
  };
  const later = (fn, bits) => clock.createAlarm(fn).schedule(bits * bitNanos());
  const wired = () =>
    chip.gpio[sdaPin].functionSelect === I2C_FUNCTION && chip.gpio[sclPin].functionSelect === I2C_FUNCTION;
  i2c.onStart = () => later(() => i2c.completeStart(), 1);
  i2c.onConnect = (address, mode) => {
    const ack = address === oledAddress && wired();
    if (ack && mode === 0) current = [address];
    later(() => i2c.completeConnect(ack), 9);
  };
  i2c.onWriteByte = (value) => {
    if (current) current.push(value);
    later(() => i2c.completeWrite(current !== null), 9);
  };
  i2c.onReadByte = () => later(() => i2c.completeRead(0xff), 9);
  i2c.onStop = () => {
    if (current && current.length > 1) send("I", current);
    current = null;
    later(() => i2c.completeStop(), 1);
  };
}

// -- I2C address probes bit-banged on the pins -------------------------------------------
// The RP2040's I2C block cannot send a bare address (a zero-length write), so
// CircuitPython probes a device by bit-banging SDA/SCL as GPIOs (I2CDisplayBus
// does at start-up).  This decodes that on the pins and pulls SDA low for the
// ACK when the OLED's address comes by.
let probeAck = false;
function attachProbeAck() {
  const sda = chip.gpio[sdaPin];
  const scl = chip.gpio[sclPin];
  const SIO_FUNCTION = 5;
  const level = (pin) => (pin.value === GPIOPinState.Low ? 0 : 1); // released: the pull-up
  let sdaLine = 1;
  let sclLine = 1;
  let bits = -1; // -1: no transfer; 0..8 address bits seen; 9: in the ACK clock
  let byte = 0;
  const ack = (on) => {
    if (probeAck !== on) {
      probeAck = on;
      refreshPins();
    }
  };
  const update = () => {
    const newSda = level(sda);
    const newScl = level(scl);
    if (sda.functionSelect !== SIO_FUNCTION || scl.functionSelect !== SIO_FUNCTION) {
      bits = -1;
      ack(false);
    } else if (sclLine === 1 && newScl === 1 && newSda !== sdaLine) {
      bits = newSda === 0 ? 0 : -1; // START, or STOP
      byte = 0;
      ack(false);
    } else if (sclLine === 0 && newScl === 1 && bits >= 0 && bits < 8) {
      byte = (byte << 1) | newSda;
      bits++;
    } else if (sclLine === 1 && newScl === 0) {
      if (bits === 8) {
        bits = 9;
        ack(byte >> 1 === oledAddress);
      } else if (bits === 9) {
        bits = -1; // a probe sends no data: STOP follows
        ack(false);
      }
    }
    sdaLine = newSda;
    sclLine = newScl;
  };
  sda.addListener(update);
  scl.addListener(update);
}

// -- USB CDC with a host that only completes OUT transfers when it has bytes ----------
function feedDevice() {
  if (!pendingOut || hostBytes.length === 0 || cdc.outEndpoint < 0) return;
  const { size } = pendingOut;
  pendingOut = null;
  const n = Math.min(size, hostBytes.length);
  chip.usbCtrl.endpointReadDone(cdc.outEndpoint, Uint8Array.from(hostBytes.splice(0, n)));
}

function attachUsb() {
  cdc = new USBCDC(chip.usbCtrl);
  cdc.onSerialData = (bytes) => send("S", bytes);
  cdc.onDeviceConnected = () => send("U", []);
  const usb = chip.usbCtrl;
  usb.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint) {
      pendingOut = { size };
      feedDevice();
    }
  };
}

// -- the chip ---------------------------------------------------------------------------
function buildChip() {
  const sim = new Simulator(); // used for its clock + chip; the run loop is runSlice()
  clock = sim.clock;
  chip = sim.rp2040;
  chip.logger = stderrLogger;
  chip.bootrom.set(patchedBootrom);
  chip.flash.set(flash);
  chip.onBreak = onBreak;
  // VREG_AND_CHIP_RESET is unimplemented and reads all ones, which the bootrom
  // takes as the debugger's rescue flag and halts: a powered-up chip reads 0.
  chip.peripherals[0x40064].readUint32 = () => 0;
  chip.peripherals[0x40064].writeUint32 = () => {};
  chip.core.reset();
  // rp2040js's SSI cannot serve the bootrom's serial flash reads of boot2, so the
  // bootrom would fall back to USB BOOTSEL mode: start at boot2 in flash instead
  // (as rp2040js's own MicroPython demo does); the ROM functions stay in place.
  chip.core.PC = 0x10000000;
  if (qspiSsPullup) {
    const sioRead = chip.sio.readUint32.bind(chip.sio);
    chip.sio.readUint32 = (offset) => (offset === 0x008 ? sioRead(offset) | 0x02 : sioRead(offset)); // GPIO_HI_IN
  }
  pendingOut = null;
  attachUsb();
  attachOled(chip.i2c[i2cBus]);
  probeAck = false;
  if (oledAddress >= 0) attachProbeAck();
  if (adcChannel >= 0) chip.adc.channelValues[adcChannel] = adcValue; // the board's supply
  const uart = chip.uart[0];
  // rp2040js raises UART0's TX interrupt on every register access and sends a byte
  // the moment it is written, so MicroPython's UART IRQ handler (which clears it)
  // ran for ever; here the TX FIFO empties as each byte leaves, which is when the
  // PL011 raises it, and a clear holds until the next byte
  uart.checkInterrupts = () => uart.rp2040.setInterrupt(uart.irq, !!(uart.interruptStatus & uart.interruptMask));
  uart.onByte = (b) => {
    uartOut.push(b);
    uart.interruptStatus |= UART_TX_INTERRUPT;
    uart.checkInterrupts();
  };
  uartAlarm = clock.createAlarm(() => feedUart(uart));
  if (uartIn.length) uartAlarm.schedule(UART_CHAR_NANOS);
  chip.gpio[LED_PIN].addListener((state) =>
    send("E", Buffer.concat([u64(now()), Buffer.from([state === GPIOPinState.High ? 1 : 0])])));
  const pads = chip.peripherals[0x4001c];
  const padsWrite = pads.writeUint32.bind(pads);
  pads.writeUint32 = (offset, value) => {
    padsWrite(offset, value);
    refreshPins();
  };
  chip.peripherals[0x40058].onWatchdogTrigger = () => {
    nanosBefore += clock.nanos;
    watchdogReset = true;
  };
  refreshPins();
}
let watchdogReset = false;

function feedUart(uart) {
  if (uartIn.length && !uart.rxFIFO.full) uart.feedByte(uartIn.shift());
  if (uartIn.length) uartAlarm.schedule(UART_CHAR_NANOS);
}

function flushUart() {
  if (uartOut.length) {
    send("W", uartOut);
    uartOut = [];
  }
}

function powerOff() {
  if (poweredOff) return;
  poweredOff = true;
  const tmp = flashFile + ".tmp";
  fs.writeFileSync(tmp, flash);
  fs.renameSync(tmp, flashFile);
  send("X", Buffer.concat([u64(now()), u32(flashOps)]));
  process.stdout.end(() => process.exit(0));
}

// A WFI with an interrupt already pending does not halt the core, PRIMASK set or not
// (ARMv6-M: an exception that would preempt with PRIMASK clear wakes it): that is what
// makes "disable interrupts; if no work: WFI; enable interrupts" race-free, and
// CircuitPython's idle (port_idle_until_interrupt) relies on it.  rp2040js wakes a
// waiting core only when an interrupt becomes pending, so a timer alarm that fired
// between CPSID and WFI halted CircuitPython for good (its 1 ms tick, keypad and
// time.sleep stopped: presses were never taken).  Execution goes on after the WFI;
// the interrupt is taken when PRIMASK clears.
const WFI = 0xbf30;
function wfiWakesAtOnce(core) {
  if (core.readUint16((core.PC - 2) >>> 0) !== WFI) return false; // WFE: events only
  const pending = core.pendingInterrupts & core.enabledInterrupts;
  if (!pending) return false;
  const active = core.exceptionPriority(core.IPSR);
  for (let priority = 0; priority < active; priority++) {
    if (pending & core.interruptPriorities[priority]) return true;
  }
  return false;
}

function runSlice() {
  if (poweredOff) return;
  if (watchdogReset) {
    watchdogReset = false;
    buildChip();
    send("R", u64(now()));
  }
  const core = chip.core;
  const stopAt = Math.min(cutAtNanos, pauseAtNanos) - nanosBefore; // in this chip's clock
  const sliceEnd = clock.nanos + 4e6; // yield to the event loop every 4 ms emulated
  const end = Math.min(stopAt, sliceEnd);
  while (clock.nanosCounter < end && !watchdogReset && !poweredOff) {
    if (core.waiting) {
      // halted until an alarm fires; with none pending only the controller's next
      // command can wake the core, and commands are read between slices: on to the
      // slice's end (MicroPython waits for REPL input with no alarm at all)
      if (!clock.nextAlarm && pauseAtNanos >= FREE_RUN_NANOS && cutAtNanos === Infinity) {
        dormant = true;
        return;
      }
      const toEnd = Math.max(end - clock.nanosCounter, CYCLE_NANOS);
      const step = clock.nextAlarm ? clock.nanosToNextAlarm : toEnd;
      const before = clock.nanosCounter;
      clock.tick(Math.max(Math.min(step, toEnd), CYCLE_NANOS));
      waitNanos += clock.nanosCounter - before;
    } else {
      clock.tick(core.executeInstruction() * CYCLE_NANOS);
      if (core.waiting && wfiWakesAtOnce(core)) core.waiting = false;
    }
  }
  if (poweredOff) return;
  flushUart();
  if (!watchdogReset) {
    const t = now();
    if (t >= cutAtNanos) return powerOff();
    if (t >= pauseAtNanos) {
      pauseAtNanos = Infinity;
      paused = true;
      send("T", Buffer.concat([u64(t), u32(flashOps)]));
      return;
    }
  }
  setImmediate(runSlice);
}

// -- commands from the controller ---------------------------------------------------------
let inbox = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  inbox = Buffer.concat([inbox, chunk]);
  while (inbox.length >= 5) {
    const len = inbox.readUInt32LE(1);
    if (inbox.length < 5 + len) break;
    const type = String.fromCharCode(inbox[0]);
    const body = inbox.subarray(5, 5 + len);
    inbox = inbox.subarray(5 + len);
    handle(type, body);
  }
  if (dormant) {
    dormant = false;
    setImmediate(runSlice);
  }
});
process.stdin.on("end", () => powerOff());

function handle(type, body) {
  if (type === "S") {
    for (const b of body) hostBytes.push(b);
    feedDevice();
  } else if (type === "G") {
    for (let i = 0; i + 1 < body.length; i += 2) {
      if (body[i + 1] === 2) drive.delete(body[i]);
      else drive.set(body[i], body[i + 1]);
    }
    refreshPins();
  } else if (type === "L") {
    pauseAtNanos = Number(body.readBigUInt64LE(0));
    if (paused) {
      paused = false;
      setImmediate(runSlice);
    }
  } else if (type === "K") {
    cutAfterOps = body.readUInt32LE(0);
  } else if (type === "C") {
    cutAtNanos = Number(body.readBigUInt64LE(0));
  } else if (type === "Q") {
    send("Q", Buffer.concat([u64(now()), u32(flashOps), u64(waitNanos), u32(flashErasedBytes),
      u32(flashProgrammedBytes)]));
  } else if (type === "P") {
    powerOff();
  } else if (type === "V") {
    const idle = uartIn.length === 0;
    for (const b of body) uartIn.push(b);
    if (idle && uartIn.length && uartAlarm) uartAlarm.schedule(UART_CHAR_NANOS);
  } else if (type === "A") {
    adcValue = body.readUInt16LE(0);
    if (adcChannel >= 0) chip.adc.channelValues[adcChannel] = adcValue;
  }
}

buildChip();
