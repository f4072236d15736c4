"""Board configuration: every pin and sensor setting in one place.

Changing a pin is a one-line change here; ``hardware/README.md`` shows the same
table (a test keeps the two in step). GPIO numbers are RP2040 ``GPn`` numbers,
valid for a Raspberry Pi Pico and for RP2040-Zero class boards alike.

Plain values, no imports: the other modules read them as ``config.NAME`` (so
``const()`` would save nothing), and the host's wiring tools load this file by path.
"""

# --- I2C bus to the AMS TCS34725 colour sensor (datasheet section "I2C protocol") ---
I2C_ID = 0  # rp2 hardware I2C block 0
I2C_SDA = 4  # GP4, I2C0 SDA
I2C_SCL = 5  # GP5, I2C0 SCL
I2C_FREQ = 400_000  # Hz; the TCS34725 supports fast mode (400 kHz)
SENSOR_ADDR = 0x29  # fixed 7-bit address of the TCS34725

# --- Sensor's illumination LED (the breakout's LED pin; high = LED on) ---
SENSOR_LED = 6  # GP6

# --- Slider switch: lever microswitch closed by the pyramid's slider ---
# The switch goes from GP15 to GND, so a pushed slider reads 0. GP15 needs the external
# 3.3 kohm pull-up to 3V3(OUT) (hardware/README.md, "Pins"): the firmware also turns on
# the RP2040's internal pull-up (Pin.PULL_UP, pyramid.app.build_board), but its ~50 uA
# is below the lever switch's minimum load (Omron D2F datasheet).
SLIDER = 15  # GP15, switch to GND; external 3.3 kohm pull-up to 3V3 (internal one too)
SLIDER_ACTIVE_LOW = True
DEBOUNCE_MS = 20  # a lever switch bounces for a few ms; 20 ms polling period

# --- Optional value buttons (1, 2, 3): press the button matching the die's face ---
VALUE_BUTTONS = (10, 11, 12)  # GP10 = 1, GP11 = 2, GP12 = 3; to GND, pull-up
VALUE_BUTTONS_FITTED = False  # True when the three buttons are wired

# --- Status LED ---
STATUS_LED = 25  # GP25: the Pico's on-board LED

# --- Sensor settings (TCS34725 datasheet: ATIME and CONTROL registers) ---
INTEGRATION_MS = 24  # integration time in ms: 2.4 ms steps, 2.4 to 614.4 ms
GAIN = 4  # analog gain: 1, 4, 16 or 60

# --- Release timing ---
SETTLE_MS = 150  # after the slider: time for the die to come to rest in the head
RELEASE_TIMEOUT_MS = 1500  # no die seen by then: report "no die"
HEARTBEAT_MS = 2000  # heartbeat period on the serial line

# --- Watchdog (RP2040 hardware watchdog, machine.WDT) ---
# ms without progress from any essential task before the board resets; 0 = off.
# 2000..8388 (rp2's maximum; it cannot be stopped once started). Holding the slider
# down at power-up (safe boot) starts neither the firmware nor the watchdog.
WATCHDOG_MS = 5000

# --- Safe boot (pyramid.safeboot) ---
# after a power-on, ms during which a BOOTSEL press (held 50 ms) gives the safe boot;
# the status LED is lit meanwhile. Press BOOTSEL only once the cable is in.
SAFE_BOOT_WINDOW_MS = 1500
