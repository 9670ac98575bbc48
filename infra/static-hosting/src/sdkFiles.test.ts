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
  versionedSdkPath,
} from './sdkFiles.ts'

test('a release has one immutable path; nothing path-like is a version', () => {
  expect(versionedSdkPath('0.1.0')).toBe('/sdk/0.1.0/sdk.js')
  expect(versionedSdkPath('2.0.0-rc.1')).toBe('/sdk/2.0.0-rc.1/sdk.js')
  for (const version of ['', 'latest', '1.0', '../1.0.0', '1.0.0/..', '1.0.0-..', '1.0.0+build'])
    expect(() => versionedSdkPath(version), version).toThrow(InvalidSdkVersionError)
})

test('recognises both SDK paths', () => {
  expect(isVersionedSdkPath('/sdk/0.1.0/sdk.js')).toBe(true)
  expect(isVersionedSdkPath('/sdk/latest/sdk.js')).toBe(false)
  expect(isVersionedSdkPath('/sdk/0.1.0/other.js')).toBe(false)
  expect(isSdkPath('/sdk.js')).toBe(true)
  expect(isSdkPath('/sdk/0.1.0/sdk.js')).toBe(true)
  expect(isSdkPath('/assets/sdk.js')).toBe(false)
})

test('sdkFiles maps both paths to the built file, at the package version by default', () => {
  expect(sdkFiles({ file: '/x/sdk.js', version: '1.2.3' })).toEqual({
    '/sdk.js': '/x/sdk.js',
    '/sdk/1.2.3/sdk.js': '/x/sdk.js',
  })
  const version = readSdkVersion()
  expect(version).toMatch(/^\d+\.\d+\.\d+/)
  expect(Object.keys(sdkFiles({ file: '/x/sdk.js' }))).toEqual([
    '/sdk.js',
    `/sdk/${version}/sdk.js`,
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
