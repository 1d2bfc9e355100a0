package io.inferencegateway.kvevents;

/**
 * The sequence numbers of one publisher's messages (from 0, one more each message), and what each new one means: the
 * next, a gap (messages lost between the publisher and us, which its replay socket may still hold), or a publisher
 * that started again (its numbers back near 0: everything it said before is void).
 */
final class PublisherSequence {

    /** What a message's number means. */
    enum SequenceStep {
        /** The next one (or the first ever): apply it. */
        NEXT,
        /** Messages from {@link #expected()} up to it were missed: replay them, or start over, then apply it. */
        GAP,
        /** Not after the last one: the publisher restarted. Forget what it said, then apply it. */
        RESTARTED
    }

    private long last = -1;

    /** What {@code seq} means, before it is {@link #applied}. */
    SequenceStep step(long seq) {
        if (last < 0 || seq == last + 1) {
            return SequenceStep.NEXT;
        }
        return seq > last ? SequenceStep.GAP : SequenceStep.RESTARTED;
    }

    /** The number that was due: the first of a gap. */
    long expected() {
        return last + 1;
    }

    /** {@code seq} was applied: the next is {@code seq + 1}. */
    void applied(long seq) {
        last = seq;
    }

    /** The number last applied, or -1. */
    long last() {
        return last;
    }
}
