package io.inferencegateway.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.inferencegateway.testing.TestPki;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The listener's TLS from {@code gateway.tls.*}: off when unset, errors that name the property and the file, and a
 * renewed certificate taken up by new connections.
 */
class ListenerTlsTest {

    @TempDir
    Path dir;

    @Test
    void unsetPropertiesLeaveTheListenerPlain() {
        try (ListenerTls tls = ListenerTls.fromFiles("", "", "", false)) {
            assertThat(tls.enabled()).isFalse();
        }
    }

    @Test
    void aMissingHalfOrAWrongFileIsNamedWithItsProperty() throws Exception {
        TestPki pki = TestPki.create(dir);
        Path notPem = Files.writeString(dir.resolve("cert.txt"), "not a certificate");
        assertThatThrownBy(() -> ListenerTls.fromFiles(pki.server().cert().toString(), "", "", false))
                .hasMessageContaining("gateway.tls.certFile is set without gateway.tls.keyFile");
        assertThatThrownBy(() -> ListenerTls.fromFiles(notPem.toString(), pki.server().key().toString(), "", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gateway.tls.certFile " + notPem + " is not PEM");
        assertThatThrownBy(() -> ListenerTls.fromFiles(pki.server().cert().toString(), pki.server().key().toString(),
                dir.resolve("none.pem").toString(), false))
                .hasMessageContaining("gateway.tls.clientCaFile " + dir.resolve("none.pem"));
    }

    @Test
    void aRenewedCertificateIsPresentedToNewConnections() throws Exception {
        TestPki pki = TestPki.create(dir.resolve("pki"));
        Path mount = Files.createDirectories(dir.resolve("mount"));
        Path cert = Files.copy(pki.server().cert(), mount.resolve("tls.crt"));
        Path key = Files.copy(pki.server().key(), mount.resolve("tls.key"));
        EventLoopGroup loops = new NioEventLoopGroup(1);
        try (ListenerTls tls = ListenerTls.fromFiles(cert.toString(), key.toString(), "", true)) {
            Channel server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(tls.connectionEntry());
                        }
                    }).bind("127.0.0.1", 0).sync().channel();
            int port = ((java.net.InetSocketAddress) server.localAddress()).getPort();
            assertThat(presentedSubject(pki, port)).contains("CN=localhost");

            // as a renewed Secret: the key first, then the certificate, each replaced whole
            Files.copy(pki.mismatchedServer().key(), key, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(pki.mismatchedServer().cert(), cert, StandardCopyOption.REPLACE_EXISTING);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> presentedSubject(pki, port).contains("CN=other.example"));
            server.close().sync();
        } finally {
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static String presentedSubject(TestPki pki, int port) throws Exception {
        try (SSLSocket s = (SSLSocket) pki.jdkClientContext(false).getSocketFactory().createSocket("127.0.0.1", port)) {
            s.startHandshake();
            return ((X509Certificate) s.getSession().getPeerCertificates()[0]).getSubjectX500Principal().getName();
        } catch (Exception e) {
            return "handshake failed: " + e; // mid-renewal: key and certificate did not match yet
        }
    }
}
