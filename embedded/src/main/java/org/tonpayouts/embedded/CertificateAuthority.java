package org.tonpayouts.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
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
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemGenerationException;

/**
 * A throw-away certificate authority for TLS between real parts on one machine: the tests' SASL_SSL
 * broker, PostgreSQL with {@code ssl=on}, the admin API over HTTPS. It makes a CA and issues server
 * and client certificates signed by it (BouncyCastle), and writes them as the files each part reads:
 * PEM for PostgreSQL and libpq-style clients, PKCS12 key and trust stores for the JVM ones.
 *
 * <p>Keys are EC P-256 and live for a day: enough for any test run, useless after it. Nothing here
 * is meant for a real deployment, whose certificates come from the operator's own PKI.
 */
public final class CertificateAuthority {
  private static final Duration VALIDITY = Duration.ofDays(1);
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());

  private final KeyPair keys;
  private final X509Certificate certificate;

  private CertificateAuthority(KeyPair keys, X509Certificate certificate) {
    this.keys = keys;
    this.certificate = certificate;
  }

  /** A new self-signed CA named {@code CN=<name>}. */
  public static CertificateAuthority create(String name) {
    KeyPair keys = newKeyPair();
    X500Name subject = new X500Name("CN=" + name);
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = builder(subject, subject, keys)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
          .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(keys, sign(builder, keys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make the CA certificate", e);
    }
  }

  /** The CA's own certificate: what a client trusts. */
  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * A server certificate for {@code localhost} and {@code 127.0.0.1} (so hostname verification, as
   * PostgreSQL's {@code sslmode=verify-full} and Kafka's HTTPS endpoint identification do it, passes
   * on this machine), also usable as a client certificate.
   */
  public Issued issueLocalhost(String commonName) {
    return issue(commonName, List.of("localhost"), List.of("127.0.0.1"));
  }

  /** A certificate for {@code CN=<commonName>} with these DNS and IP subject alternative names. */
  public Issued issue(String commonName, List<String> dnsNames, List<String> ipAddresses) {
    KeyPair leaf = newKeyPair();
    List<GeneralName> names = new ArrayList<>();
    dnsNames.forEach(dns -> names.add(new GeneralName(GeneralName.dNSName, dns)));
    ipAddresses.forEach(ip -> names.add(new GeneralName(GeneralName.iPAddress, ip)));
    try {
      JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
      X509v3CertificateBuilder builder = builder(new X500Name(certificate.getSubjectX500Principal().getName()),
          new X500Name("CN=" + commonName), leaf)
          .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
          .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement))
          .addExtension(Extension.extendedKeyUsage, false,
              new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
          .addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate))
          .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(leaf.getPublic()));
      if (!names.isEmpty()) {
        builder.addExtension(Extension.subjectAlternativeName, false,
            new GeneralNames(names.toArray(GeneralName[]::new)));
      }
      return new Issued(leaf.getPrivate(), sign(builder, keys.getPrivate()), certificate);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a certificate for " + commonName, e);
    }
  }

  /** A TLS context for clients that trust this CA only (and present no certificate of their own). */
  public SSLContext clientContext() {
    try {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("ca", certificate);
      TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(trust);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot make a TLS context trusting " + certificate.getSubjectX500Principal(), e);
    }
  }

  /** Writes the CA certificate as PEM (PostgreSQL's {@code sslrootcert}, a PEM trust store). */
  public Path writeCertificatePem(Path file) {
    return writePem(file, certificate);
  }

  /** Writes a PKCS12 trust store holding only the CA certificate. */
  public Path writeTrustStore(Path file, char[] password) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setCertificateEntry("ca", certificate);
      return store(store, file, password);
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot write the trust store " + file, e);
    }
  }

  /** A certificate this CA issued, with its private key. */
  public record Issued(PrivateKey privateKey, X509Certificate certificate, X509Certificate issuer) {
    /** Writes the certificate as PEM. */
    public Path writeCertificatePem(Path file) {
      return writePem(file, certificate);
    }

    /** Writes the private key as PKCS#8 PEM, readable by its owner only (PostgreSQL refuses a looser one). */
    public Path writePrivateKeyPem(Path file) {
      try {
        writePem(file, new JcaPKCS8Generator(privateKey, null).generate());
      } catch (PemGenerationException e) {
        throw new IllegalStateException("cannot encode the private key", e);
      }
      try {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return file;
    }

    /** Writes a PKCS12 key store with the key under {@code alias} and its chain (this certificate, then the CA). */
    public Path writeKeyStore(Path file, String alias, char[] password) {
      try {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(alias, privateKey, password, new Certificate[] {certificate, issuer});
        return store(store, file, password);
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalStateException("cannot write the key store " + file, e);
      }
    }
  }

  private static X509v3CertificateBuilder builder(X500Name issuer, X500Name subject, KeyPair keys) {
    Instant now = Instant.now();
    return new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(SERIALS.incrementAndGet()),
        Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(VALIDITY)), subject, keys.getPublic());
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
      throws GeneralSecurityException {
    try {
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder(SIGNATURE).build(signer)));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static KeyPair newKeyPair() {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(256, new SecureRandom());
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no EC key pair generator", e);
    }
  }

  private static Path writePem(Path file, Object object) {
    StringWriter text = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
      pem.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      Files.writeString(file, text.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return file;
  }

  private static Path store(KeyStore store, Path file, char[] password)
      throws IOException, GeneralSecurityException {
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, password);
    }
    return file;
  }
}
