package org.snapslide.test;

import java.util.ArrayList;
import java.util.List;
import org.snapslide.Bridge;
import org.snapslide.Host;

/** Stands in for MainActivity in the bridge's JVM test: records what Rust asks of it. */
public final class FakeActivity implements Host {
    private final List<String> calls = new ArrayList<>();

    @Override
    public synchronized void pickPhoto(int origin) {
        calls.add("pickPhoto:" + origin);
    }

    @Override
    public synchronized void haptic(int kind) {
        calls.add("haptic:" + kind);
    }

    @Override
    public synchronized void shareText(String text) {
        calls.add("shareText:" + text);
    }

    @Override
    public synchronized void shareFile(String path, String mime) {
        calls.add("shareFile:" + path + ":" + mime);
    }

    /** What Rust asked, in order, joined with commas. */
    public synchronized String calls() {
        return String.join(",", calls);
    }

    /** Hands a photo over from a thread of Java's own, as the decoding thread does on Android. */
    public static void photoFromWorker(byte[] jpeg, String name) throws InterruptedException {
        Thread worker = new Thread(() -> Bridge.photo(jpeg, name), "photo-worker");
        worker.start();
        worker.join();
    }
}
