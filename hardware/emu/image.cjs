// The emulated board's --flash image, written whole or not at all (docs/emulator.md,
// "The board's flash, its boot ids and its unique id"), as
// camelhost.device.emulated.write_image writes it from Python:
//
//   writeImage(file, parts[, fs])
//
// writes the Buffers `parts` one after the other to a temporary file in the image's own
// folder (so the rename never crosses a filesystem), flushes it to the disk (fsync), renames
// it over `file` and flushes the folder (fsync), so the new name survives a power loss as
// the bytes do. The image on disk is always whole: the one before the write or the one
// after. On a failure before the rename the temporary file is removed, `file` is left as it
// was and the error is thrown. A folder that cannot be flushed (a filesystem without
// directory fsync) costs only that last guarantee: the image is whole either way.
// `fs`: Node's fs module, or a stand-in with the same calls (the tests inject failures).
'use strict';

const path = require('path');

function writeImage(file, parts, fs = require('fs')) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(tmp, 'w');
    try {
      for (const part of parts) {
        let done = 0;
        while (done < part.length) done += fs.writeSync(fd, part, done, part.length - done);
      }
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch (_) {
      // nothing was made, or it is gone already
    }
    throw e;
  }
  let dir = null;
  try {
    dir = fs.openSync(path.dirname(path.resolve(file)), 'r');
    fs.fsyncSync(dir);
  } catch (_) {
    // the image is whole; only the rename's durability across a power loss is not sure
  } finally {
    if (dir !== null) fs.closeSync(dir);
  }
}

module.exports = { writeImage };
