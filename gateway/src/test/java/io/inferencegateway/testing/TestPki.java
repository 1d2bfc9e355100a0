package io.inferencegateway.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;

/**
 * A throw-away PKI for TLS tests, written as PEM files (keys unencrypted PKCS#8, as the gateway reads them) into a
 * directory: a CA; a server certificate it signs for {@code localhost}, {@code 127.0.0.1} and the names and addresses
 * the caller adds; a server certificate it signs for {@code other.example} only (a name mismatch); a client certificate
 * it signs (mTLS); and a second CA, trusted by nobody, with a server certificate for the same names as the first.
 * EC P-256 keys: quick to make, and spoken by both BoringSSL and the JDK.
 */
public final class TestPki {

    /** A certificate and its key, as PEM files. */
    public record Pair(Path cert, Path key) {
    }

    private static final AtomicLong SERIAL = new AtomicLong(System.currentTimeMillis());

    private final Path dir;
    private final Path caFile;
    private final Pair server;
    private final Pair mismatchedServer;
    private final Pair client;
    private final Path untrustedCaFile;
    private final Pair untrustedServer;
    private final X509Certificate caCert;

    private TestPki(Path dir, List<String> extraNames) throws Exception {
        this.dir = dir;
        List<String> names = new ArrayList<>(List.of("localhost", "127.0.0.1"));
        names.addAll(extraNames);

        KeyPair caKeys = newKeys();
        caCert = ca("CN=Inference Gateway Test CA", caKeys);
        caFile = writeCert("ca.pem", caCert);
        server = leaf("server", "CN=localhost", names, KeyPurposeId.id_kp_serverAuth, caCert, caKeys);
        mismatchedServer = leaf("mismatched-server", "CN=other.example", List.of("other.example"),
                KeyPurposeId.id_kp_serverAuth, caCert, caKeys);
        client = leaf("client", "CN=test-client", List.of(), KeyPurposeId.id_kp_clientAuth, caCert, caKeys);

        KeyPair otherKeys = newKeys();
        X509Certificate otherCa = ca("CN=Untrusted Test CA", otherKeys);
        untrustedCaFile = writeCert("untrusted-ca.pem", otherCa);
        untrustedServer = leaf("untrusted-server", "CN=localhost", names, KeyPurposeId.id_kp_serverAuth, otherCa,
                otherKeys);
    }

    /**
     * Makes the PKI in {@code dir}.
     *
     * @param extraNames DNS names or IP addresses the server certificate carries besides localhost and 127.0.0.1
     */
    public static TestPki create(Path dir, String... extraNames) {
        try {
            Files.createDirectories(dir);
            return new TestPki(dir, List.of(extraNames));
        } catch (Exception e) {
            throw new IllegalStateException("cannot make the test PKI in " + dir, e);
        }
    }

    public Path dir() {
        return dir;
    }

    /** The CA that signs the server, mismatched-server and client certificates. */
    public Path caFile() {
        return caFile;
    }

    /** For localhost, 127.0.0.1 and the extra names; signed by {@link #caFile()}. */
    public Pair server() {
        return server;
    }

    /** For other.example only; signed by {@link #caFile()}. */
    public Pair mismatchedServer() {
        return mismatchedServer;
    }

    /** A client certificate (extended key usage clientAuth); signed by {@link #caFile()}. */
    public Pair client() {
        return client;
    }

    /** A CA nobody is told to trust. */
    public Path untrustedCaFile() {
        return untrustedCaFile;
    }

    /** For the same names as {@link #server()}, but signed by {@link #untrustedCaFile()}. */
    public Pair untrustedServer() {
        return untrustedServer;
    }

    /** A Netty server context (for stub servers) presenting {@code pair}; requiring client certificates if asked. */
    public SslContext serverContext(Pair pair, boolean requireClientCertificate) {
        try {
            SslContextBuilder b = SslContextBuilder.forServer(pair.cert().toFile(), pair.key().toFile());
            if (requireClientCertificate) {
                b.trustManager(caFile.toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            return b.build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JDK trust manager that trusts {@link #caFile()} only (for JDK and OkHttp clients). */
    public X509TrustManager trustManager() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("ca", caCert);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            return (X509TrustManager) tmf.getTrustManagers()[0];
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A JDK TLS context that trusts {@link #caFile()}; presents the {@link #client()} certificate if asked. */
    public SSLContext jdkClientContext(boolean withClientCertificate) {
        try {
            KeyManagerFactory kmf = null;
            if (withClientCertificate) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                java.security.PrivateKey key = java.security.KeyFactory.getInstance("EC").generatePrivate(
                        new java.security.spec.PKCS8EncodedKeySpec(pemBody(client.key())));
                X509Certificate cert = (X509Certificate) java.security.cert.CertificateFactory.getInstance("X.509")
                        .generateCertificate(Files.newInputStream(client.cert()));
                keys.setKeyEntry("client", key, new char[0], new X509Certificate[] {cert, caCert});
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, new char[0]);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), new javax.net.ssl.TrustManager[] {trustManager()}, null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- making certificates --------------------------------------------------------------------

    private static KeyPair newKeys() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static X509Certificate ca(String subject, KeyPair keys) throws Exception {
        X500Name name = new X500Name(subject);
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder b = builder(name, name, keys)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
        return sign(b, keys);
    }

    private Pair leaf(String file, String subject, List<String> names, KeyPurposeId purpose, X509Certificate issuer,
            KeyPair issuerKeys) throws Exception {
        KeyPair keys = newKeys();
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder b = builder(X500Name.getInstance(issuer.getSubjectX500Principal().getEncoded()),
                new X500Name(subject), keys)
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose))
                .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()))
                .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(issuer));
        if (!names.isEmpty()) {
            GeneralName[] sans = names.stream().map(TestPki::generalName).toArray(GeneralName[]::new);
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
        }
        X509Certificate cert = sign(b, issuerKeys);
        return new Pair(writeCert(file + ".pem", cert), writeKey(file + "-key.pem", keys));
    }

    private static GeneralName generalName(String name) {
        boolean ip = name.indexOf(':') >= 0 || name.chars().allMatch(c -> c == '.' || Character.isDigit(c));
        return new GeneralName(ip ? GeneralName.iPAddress : GeneralName.dNSName, name);
    }

    private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))), subject,
                keys.getPublic());
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair signer) throws Exception {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
    }

    private Path writeCert(String file, X509Certificate cert) throws Exception {
        return write(file, "CERTIFICATE", cert.getEncoded());
    }

    private Path writeKey(String file, KeyPair keys) throws IOException {
        return write(file, "PRIVATE KEY", keys.getPrivate().getEncoded()); // PKCS#8
    }

    private Path write(String file, String type, byte[] der) throws IOException {
        String pem = "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
        return Files.writeString(dir.resolve(file), pem);
    }

    private static byte[] pemBody(Path file) throws IOException {
        String text = Files.readString(file);
        String body = text.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return Base64.getDecoder().decode(body);
    }
}
