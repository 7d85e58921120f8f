// Voice messages: MediaRecorder → 16 kHz mono WAV → checks → send. Recording pauses every other
// playback and restores it afterwards (spec §4). Errors become 'Erro no Microfone' toasts (spec §8).
import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "~/components/Toaster";
import { playback } from "~/lib/audio/playback";
import { createRecorder, MICROPHONE_TOAST_TITLE, recordToWav, type Recorder } from "./recorder";

export function useVoiceRecorder(onRecorded: (wav: Blob) => void) {
  const [recording, setRecording] = useState(false);
  const [converting, setConverting] = useState(false);
  const [seconds, setSeconds] = useState(0);
  const recorderRef = useRef<Recorder | null>(null);
  const onRecordedRef = useRef(onRecorded);
  onRecordedRef.current = onRecorded;

  const fail = (message: string) => toast({ type: "error", title: MICROPHONE_TOAST_TITLE, description: message });

  const start = useCallback(async () => {
    // Inside the tap: iOS Safari only lets audio play later if it was unlocked by a gesture.
    playback.unlock();
    const recorder = createRecorder({
      onError: (message) => {
        playback.endRecording();
        setRecording(false);
        fail(message);
      },
    });
    recorderRef.current = recorder;
    playback.beginRecording();
    const started = await recorder.start();
    if (!started) return;
    setSeconds(0);
    setRecording(true);
  }, []);

  const stop = useCallback(async () => {
    const recorder = recorderRef.current;
    if (!recorder) return;
    recorderRef.current = null;
    setRecording(false);
    setConverting(true);
    const blob = await recorder.stop();
    playback.endRecording();
    const result = await recordToWav(blob);
    setConverting(false);
    if (!result.ok) fail(result.message);
    else onRecordedRef.current(result.wav);
  }, []);

  useEffect(() => {
    if (!recording) return;
    const timer = setInterval(() => setSeconds((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [recording]);

  // Leaving the page mid-recording releases the microphone.
  useEffect(
    () => () => {
      if (recorderRef.current) {
        recorderRef.current.release();
        playback.endRecording();
      }
    },
    [],
  );

  return { recording, converting, seconds, start, stop };
}
