package io.inferencegateway.proxy;

import java.nio.file.Path;
import java.util.Objects;

import javax.net.ssl.SSLException;

import io.inferencegateway.config.PemFiles;
import io.inferencegateway.domain.Endpoint;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;

/**
 * How to speak HTTPS to a target: the client-side TLS context (which CAs to trust, and the client certificate for
 * mTLS, if any) and the name to verify the server's certificate against. Given to {@link UpstreamClient#send} and to
 * the metrics scraper's GETs; null there means plain HTTP.
 *
 * <p>The server's certificate is verified against the CA file, or the JDK's default trust store when there is none,
 * and its name against the target's host (endpoint identification {@code HTTPS}: a DNS name must match a DNS SAN, an
 * IP address an IP SAN), which is also sent as SNI when it is a DNS name. BoringSSL does the work where Netty's
 * tcnative loads (x86-64 Linux), the JDK's TLS elsewhere.
 *
 * <p>Connections made with one instance are pooled apart from plain ones and from those of any other instance, so a
 * context rebuilt from changed files starts afresh. Immutable and shared by every call.
 */
public final class UpstreamTls {

    private final SslContext context;
    private final String serverName;

    /**
     * @param context    a client context ({@link SslContextBuilder#forClient()})
     * @param serverName the name the server's certificate must carry and SNI names, or null for each target's host
     */
    public UpstreamTls(SslContext context, String serverName) {
        this.context = Objects.requireNonNull(context, "context");
        if (!context.isClient()) {
            throw new IllegalArgumentException("an upstream TLS context must be a client context");
        }
        this.serverName = serverName == null || serverName.isBlank() ? null : serverName;
    }

    /**
     * A client context from PEM files, verifying server certificates and host names.
     *
     * @param caFile   the CAs to trust, or null for the JDK's default trust store (public providers)
     * @param certFile the client certificate chain for mTLS, or null for none; needs {@code keyFile}
     * @param keyFile  its private key, PKCS#8 ({@code -----BEGIN PRIVATE KEY-----}), or null for none
     * @throws IllegalArgumentException naming the file when one is missing, unreadable or not PEM, or its content is
     *                                  not what it should be; or when only one of certificate and key is given
     */
    public static UpstreamTls client(Path caFile, Path certFile, Path keyFile) {
        if ((certFile == null) != (keyFile == null)) {
            throw new IllegalArgumentException(certFile == null
                    ? "client key file " + keyFile + " is given without a client certificate file"
                    : "client certificate file " + certFile + " is given without a client key file");
        }
        SslContextBuilder builder = SslContextBuilder.forClient().sslProvider(provider())
                .endpointIdentificationAlgorithm("HTTPS");
        if (caFile != null) {
            PemFiles.require(caFile, "CA file");
            try {
                builder.trustManager(caFile.toFile());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("CA file " + caFile + " holds no readable certificate: "
                        + e.getMessage(), e);
            }
        }
        if (certFile != null) {
            PemFiles.require(certFile, "client certificate file");
            PemFiles.require(keyFile, "client key file");
            try {
                builder.keyManager(certFile.toFile(), keyFile.toFile());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("client certificate file " + certFile + " or key file " + keyFile
                        + " cannot be read (the key must be unencrypted PKCS#8, -----BEGIN PRIVATE KEY-----): "
                        + e.getMessage(), e);
            }
        }
        try {
            return new UpstreamTls(builder.build(), null);
        } catch (SSLException | IllegalArgumentException e) {
            throw new IllegalArgumentException("TLS client context from CA file " + caFile + ", certificate file "
                    + certFile + " and key file " + keyFile + " cannot be built: " + e.getMessage(), e);
        }
    }

    /** A client context that trusts the JDK's default CAs and presents no certificate: public providers. */
    public static UpstreamTls systemDefault() {
        return client(null, null, null);
    }

    /** The same context, verifying and naming {@code name} instead of each target's host (a target reached by IP). */
    public UpstreamTls withServerName(String name) {
        return new UpstreamTls(context, name);
    }

    public SslContext context() {
        return context;
    }

    /** The name verified and sent as SNI, or null for each target's host. */
    public String serverName() {
        return serverName;
    }

    /** BoringSSL when Netty's tcnative loads here, else the JDK's TLS. */
    public static SslProvider provider() {
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }

    /**
     * The TLS handler of a new connection to {@code target}: verifies and names {@link #serverName()} or the target's
     * host; a handshake that does not finish within {@code handshakeTimeoutMillis} fails.
     */
    public SslHandler newHandler(ByteBufAllocator alloc, Endpoint target, long handshakeTimeoutMillis) {
        SslHandler handler = context.newHandler(alloc, serverName != null ? serverName : target.host(), target.port());
        handler.setHandshakeTimeoutMillis(handshakeTimeoutMillis);
        return handler;
    }
}
