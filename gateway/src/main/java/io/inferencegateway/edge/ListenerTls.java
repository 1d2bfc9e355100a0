package io.inferencegateway.edge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.inferencegateway.config.MountedFileWatcher;
import io.inferencegateway.config.PemFiles;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerAdapter;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

/**
 * HTTPS on the gateway's own listener, from the {@code gateway.tls.*} process properties: a certificate and its key
 * (PEM), and optionally the CAs of the clients, which then must present a certificate (mTLS between clusters). Off,
 * the listener is plain HTTP as before.
 *
 * <p>Each new connection is given a TLS handler at the head of its pipeline by {@link #connectionEntry}, the
 * ingress's per-connection handler entry, which then steps aside: a plain listener keeps nothing of it. The files are
 * watched ({@link MountedFileWatcher}): when a mounted Secret is renewed, new connections get the new certificate, and
 * open ones keep theirs. A renewal that does not load is logged and the last good one is kept.
 * BoringSSL does the work where Netty's tcnative loads, the JDK's TLS elsewhere.
 */
public final class ListenerTls implements AutoCloseable {

    /** The TLS handler's name in a client connection's pipeline. */
    private static final String HANDLER_NAME = "tls";

    private final Path certFile;
    private final Path keyFile;
    private final Path clientCaFile;
    private final List<MountedFileWatcher> watchers = new ArrayList<>();
    private final ChannelHandler entry;
    private volatile SslContext context; // null: plain HTTP

    private ListenerTls(Path certFile, Path keyFile, Path clientCaFile) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.clientCaFile = clientCaFile;
        this.entry = new PutTlsFirst();
    }

    /**
     * The listener's TLS: off when {@code certFile} and {@code keyFile} are both blank (the properties unset).
     *
     * @param clientCaFile blank, or the CAs whose client certificates are accepted; then every client must present one
     * @param reload       whether to watch the files and take up their changes
     * @throws IllegalArgumentException naming the property and the file that is missing, not PEM or does not load
     */
    public static ListenerTls fromFiles(String certFile, String keyFile, String clientCaFile, boolean reload) {
        Path cert = path(certFile);
        Path key = path(keyFile);
        Path ca = path(clientCaFile);
        if (cert == null && key == null) {
            if (ca != null) {
                throw new IllegalArgumentException("gateway.tls.clientCaFile is set without gateway.tls.certFile and "
                        + "gateway.tls.keyFile");
            }
            return new ListenerTls(null, null, null);
        }
        if (cert == null || key == null) {
            throw new IllegalArgumentException(cert == null ? "gateway.tls.keyFile is set without gateway.tls.certFile"
                    : "gateway.tls.certFile is set without gateway.tls.keyFile");
        }
        ListenerTls tls = new ListenerTls(cert, key, ca);
        tls.context = serverContext(cert, key, ca);
        if (reload) {
            tls.watch(cert, "gateway.tls.certFile");
            tls.watch(key, "gateway.tls.keyFile");
            if (ca != null) {
                tls.watch(ca, "gateway.tls.clientCaFile");
            }
        }
        return tls;
    }

    /**
     * A server context from PEM files: {@code cert} and {@code key} (PKCS#8); with {@code clientCa}, client
     * certificates signed by it are required.
     */
    public static SslContext serverContext(Path cert, Path key, Path clientCa) {
        PemFiles.require(cert, "gateway.tls.certFile");
        PemFiles.require(key, "gateway.tls.keyFile");
        SslContextBuilder builder;
        try {
            builder = SslContextBuilder.forServer(cert.toFile(), key.toFile());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gateway.tls.certFile " + cert + " or gateway.tls.keyFile " + key
                    + " cannot be read (the key must be unencrypted PKCS#8, -----BEGIN PRIVATE KEY-----): "
                    + e.getMessage(), e);
        }
        builder.sslProvider(OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK);
        if (clientCa != null) {
            PemFiles.require(clientCa, "gateway.tls.clientCaFile");
            try {
                builder.trustManager(clientCa.toFile()).clientAuth(ClientAuth.REQUIRE);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("gateway.tls.clientCaFile " + clientCa
                        + " holds no readable certificate: " + e.getMessage(), e);
            }
        }
        try {
            return builder.build();
        } catch (IOException | IllegalArgumentException e) { // SSLException is an IOException
            throw new IllegalArgumentException("TLS for the listener from gateway.tls.certFile " + cert
                    + " and gateway.tls.keyFile " + key + " cannot be built: " + e.getMessage(), e);
        }
    }

    /** Whether the listener speaks HTTPS. */
    public boolean enabled() {
        return context != null;
    }

    /**
     * The handler entry of a new connection: puts the TLS handler first when on, then removes itself. (Not a
     * {@code Supplier}: Camel's registry would take a supplier bean for what it supplies.)
     */
    public ChannelHandler connectionEntry() {
        return entry;
    }

    private void watch(Path file, String what) {
        byte[] current;
        try {
            current = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // what the reader throws, the watcher logs; the context in use stays
        watchers.add(MountedFileWatcher.start(file, what, current,
                content -> context = serverContext(certFile, keyFile, clientCaFile)));
    }

    @Override
    public void close() {
        watchers.forEach(MountedFileWatcher::close);
        watchers.clear();
    }

    private static Path path(String file) {
        return file == null || file.isBlank() ? null : Path.of(file.trim());
    }

    /** One for all connections: it only edits the pipeline it is added to. */
    @ChannelHandler.Sharable
    private final class PutTlsFirst extends ChannelHandlerAdapter {
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            SslContext c = context;
            if (c != null) {
                ctx.pipeline().addFirst(HANDLER_NAME, c.newHandler(ctx.alloc()));
            }
            ctx.pipeline().remove(this);
        }
    }
}
