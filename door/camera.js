// Camera scanning (docs/API.md, "The door app"): QR codes and barcodes read from the phone's
// camera, by the browser's BarcodeDetector where it has one, else by zxing-wasm, which the
// service serves itself (/door/vendor/zxing/: no CDN, a venue may have no internet). The camera
// needs a secure context (HTTPS or localhost): on plain HTTP, cameraUnavailable says why.

const ZXING = '/door/vendor/zxing/reader/index.js';
const ZXING_WASM = '/door/vendor/zxing/reader/zxing_reader.wasm';
/** What a ticket may carry: QR codes (phones' e-tickets) and printed linear codes. */
const FORMATS = ['qr_code', 'code_128', 'code_39', 'ean_13', 'itf', 'pdf417'];
const ZXING_FORMATS = ['QRCode', 'Code128', 'Code39', 'EAN13', 'ITF', 'PDF417'];
/** Between two looks at the picture: a phone's CPU is the door's battery. */
const FRAME_MS = 150;

/** Why the camera cannot be used here, or null. */
export function cameraUnavailable() {
  if (!window.isSecureContext) {
    return 'The camera needs HTTPS or localhost: on this address, type the code or use a handheld scanner.';
  }
  if (!navigator.mediaDevices?.getUserMedia) {
    return 'This browser gives no camera to web pages: type the code or use a handheld scanner.';
  }
  return null;
}

/** A function from a video frame to the codes in it, by the best decoder the browser has. */
async function decoder() {
  if ('BarcodeDetector' in window) {
    const supported = await window.BarcodeDetector.getSupportedFormats();
    const formats = FORMATS.filter((f) => supported.includes(f));
    if (formats.includes('qr_code')) {
      const detector = new window.BarcodeDetector({ formats });
      return {
        name: 'BarcodeDetector',
        read: async (video) =>
          (await detector.detect(video)).map((code) => code.rawValue),
      };
    }
  }
  const zxing = await import(ZXING);
  await zxing.prepareZXingModule({
    overrides: {
      locateFile: (path, prefix) =>
        path.endsWith('.wasm') ? ZXING_WASM : prefix + path,
    },
    fireImmediately: true,
  });
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return {
    name: 'zxing-wasm',
    read: async (video) => {
      if (video.videoWidth === 0) return [];
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      context.drawImage(video, 0, 0);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const results = await zxing.readBarcodes(image, {
        formats: ZXING_FORMATS,
        tryHarder: true,
        maxNumberOfSymbols: 1,
      });
      return results.filter((r) => r.isValid).map((r) => r.text);
    },
  };
}

/**
 * Starts the camera in `video` and calls `onCode(text)` for each code seen (the same code again
 * only after `repeatMs`, so a ticket held up is one scan). Resolves with `stop()` and the
 * decoder's name; rejects when the camera cannot start (refused, none, in use). A decoder that
 * fails later stops the camera and calls `onError`.
 */
export async function startCamera(video, onCode, onError, repeatMs = 3_000) {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment' },
    audio: false,
  });
  let stopped = false;
  const stop = () => {
    stopped = true;
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  try {
    video.srcObject = stream;
    await video.play();
    const { name, read } = await decoder();
    let last = { text: '', at: 0 };
    const look = async () => {
      if (stopped) return;
      try {
        for (const text of await read(video)) {
          const now = Date.now();
          if (text === last.text && now - last.at < repeatMs) continue;
          last = { text, at: now };
          onCode(text);
        }
      } catch (error) {
        stop();
        onError(error);
        return;
      }
      if (!stopped) setTimeout(() => void look(), FRAME_MS);
    };
    void look();
    return { stop, decoder: name };
  } catch (error) {
    stop();
    throw error;
  }
}
