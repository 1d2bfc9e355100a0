package io.inferencegateway.proxy;

import java.util.List;
import java.util.Map;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;

/** Copies HTTP headers across the proxy minus the hop-by-hop ones (RFC 9110 §7.6.1). */
final class HopByHopHeaders {

    private static final List<CharSequence> HOP_BY_HOP = List.of(
            HttpHeaderNames.CONNECTION, HttpHeaderNames.KEEP_ALIVE, HttpHeaderNames.PROXY_AUTHENTICATE,
            HttpHeaderNames.PROXY_AUTHORIZATION, HttpHeaderNames.TE, HttpHeaderNames.TRAILER,
            HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.UPGRADE, "proxy-connection");

    private HopByHopHeaders() {
    }

    /** Copies {@code from} into {@code to}, leaving out hop-by-hop headers, those that Connection names, and {@code also}. */
    static void copyEndToEnd(HttpHeaders from, HttpHeaders to, CharSequence... also) {
        String connection = from.get(HttpHeaderNames.CONNECTION);
        for (Map.Entry<String, String> h : from) {
            String name = h.getKey();
            if (isHopByHop(name, connection) || isOneOf(name, also)) {
                continue;
            }
            to.add(name, h.getValue());
        }
    }

    private static boolean isHopByHop(String name, String connection) {
        for (CharSequence h : HOP_BY_HOP) {
            if (AsciiString.contentEqualsIgnoreCase(h, name)) {
                return true;
            }
        }
        if (connection != null) {
            for (String token : connection.split(",")) {
                if (token.trim().equalsIgnoreCase(name)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isOneOf(String name, CharSequence[] names) {
        for (CharSequence n : names) {
            if (AsciiString.contentEqualsIgnoreCase(n, name)) {
                return true;
            }
        }
        return false;
    }
}
