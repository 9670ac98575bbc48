import { describe, expect, test } from 'vitest'
import { projectIdParameter } from './projectIdParameter.ts'

describe('projectIdParameter', () => {
  test('reads one exact projectId among other parameters', () => {
    expect(projectIdParameter('?projectId=porthole-demo&origin=http%3A%2F%2Flocalhost')).toEqual({
      status: 'valid',
      projectId: 'porthole-demo',
    })
    expect(projectIdParameter('origin=x&projectId=a_1&x=projectid%3Devil')).toEqual({
      status: 'valid',
      projectId: 'a_1',
    })
  })

  test('no projectId is absent', () => {
    for (const search of ['', '?', '?origin=x', '?project=x', '?id=projectId'])
      expect(projectIdParameter(search), search).toEqual({ status: 'absent' })
  })

  test.each([
    'projectid=attacker&projectId=porthole-demo',
    'projectId=porthole-demo&PrOjEcTiD=attacker',
    'projectID=&projectId=porthole-demo',
    'projectId=porthole-demo&projectId=attacker',
    'project%49d=porthole-demo',
    '%70rojectId=porthole-demo',
    'projectId%5B%5D=attacker',
    'projectId[]=attacker&projectId=porthole-demo',
    'projectId&projectId=porthole-demo',
    'projectId=',
    'projectId=%20porthole-demo',
    'projectId=porthole%2Ddemo',
    'projectId=-x',
    `projectId=${'a'.repeat(65)}`,
  ])('?%s is invalid', (search) => {
    expect(projectIdParameter(search)).toEqual({ status: 'invalid' })
  })
})
