import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  InvalidSdkVersionError,
  isSdkPath,
  isVersionedSdkPath,
  readSdkVersion,
  sdkFiles,
  versionedSdkCallsPath,
  versionedSdkChainsPath,
  versionedSdkPath,
} from './sdkFiles.ts'

test('a release has one immutable path; nothing path-like is a version', () => {
  expect(versionedSdkPath('0.1.0')).toBe('/sdk/0.1.0/sdk.js')
  expect(versionedSdkPath('2.0.0-rc.1')).toBe('/sdk/2.0.0-rc.1/sdk.js')
  for (const version of ['', 'latest', '1.0', '../1.0.0', '1.0.0/..', '1.0.0-..', '1.0.0+build'])
    expect(() => versionedSdkPath(version), version).toThrow(InvalidSdkVersionError)
})

test('recognises the SDK paths, sdk-chains.js and sdk-calls.js only at a version', () => {
  expect(isVersionedSdkPath('/sdk/0.1.0/sdk.js')).toBe(true)
  expect(isVersionedSdkPath('/sdk/0.1.0/sdk-chains.js')).toBe(true)
  expect(isVersionedSdkPath('/sdk/0.1.0/sdk-calls.js')).toBe(true)
  expect(isVersionedSdkPath('/sdk/latest/sdk-calls.js')).toBe(false)
  expect(isSdkPath('/sdk-calls.js')).toBe(false)
  expect(isVersionedSdkPath('/sdk/latest/sdk.js')).toBe(false)
  expect(isVersionedSdkPath('/sdk/latest/sdk-chains.js')).toBe(false)
  expect(isVersionedSdkPath('/sdk/0.1.0/other.js')).toBe(false)
  expect(isSdkPath('/sdk.js')).toBe(true)
  expect(isSdkPath('/sdk/0.1.0/sdk.js')).toBe(true)
  expect(isSdkPath('/sdk/0.1.0/sdk-chains.js')).toBe(true)
  expect(isSdkPath('/sdk-chains.js')).toBe(false)
  expect(isSdkPath('/assets/sdk.js')).toBe(false)
  expect(versionedSdkChainsPath('0.1.2')).toBe('/sdk/0.1.2/sdk-chains.js')
  expect(() => versionedSdkChainsPath('../x')).toThrow(InvalidSdkVersionError)
  expect(versionedSdkCallsPath('0.1.8')).toBe('/sdk/0.1.8/sdk-calls.js')
  expect(() => versionedSdkCallsPath('../x')).toThrow(InvalidSdkVersionError)
})

test('sdkFiles maps both paths to the built file and the release’s sdk-chains.js and sdk-calls.js to the files beside it, at the package version by default', () => {
  expect(sdkFiles({ file: '/x/sdk.js', version: '1.2.3' })).toEqual({
    '/sdk.js': '/x/sdk.js',
    '/sdk/1.2.3/sdk.js': '/x/sdk.js',
    '/sdk/1.2.3/sdk-chains.js': '/x/sdk-chains.js',
    '/sdk/1.2.3/sdk-calls.js': '/x/sdk-calls.js',
  })
  const version = readSdkVersion()
  expect(version).toMatch(/^\d+\.\d+\.\d+/)
  expect(Object.keys(sdkFiles({ file: '/x/sdk.js' }))).toEqual([
    '/sdk.js',
    `/sdk/${version}/sdk.js`,
    `/sdk/${version}/sdk-chains.js`,
    `/sdk/${version}/sdk-calls.js`,
  ])
})

test('readSdkVersion refuses a package.json without a usable version', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'porthole-sdk-version-'))
  try {
    await writeFile(join(dir, 'package.json'), JSON.stringify({ version: '../../etc' }))
    expect(() => readSdkVersion(join(dir, 'package.json'))).toThrow(InvalidSdkVersionError)
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'x' }))
    expect(() => readSdkVersion(join(dir, 'package.json'))).toThrow(InvalidSdkVersionError)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
